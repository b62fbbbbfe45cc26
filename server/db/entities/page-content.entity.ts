import { defineEntity, p } from '@mikro-orm/core';
import { clock } from '../../clock.ts';
import { Page } from './page.entity.ts';

/**
 * The heavy part of a page, kept apart so lists never load it: the original HTML (kept for
 * re-parsing), the sanitised article HTML the reader renders, and the plain text highlights
 * anchor into.
 */
export const PageContentSchema = defineEntity({
  name: 'PageContent',
  tableName: 'page_content',
  properties: {
    page: () => p.oneToOne(Page).primary().deleteRule('cascade').owner(),
    originalHtml: p.text().lazy().nullable(),
    contentHtml: p.text().default(''),
    text: p.text().default(''),
    updatedAt: p
      .datetime()
      .onCreate(() => clock.now())
      .onUpdate(() => clock.now()),
  },
});

export class PageContent extends PageContentSchema.class {}
PageContentSchema.setClass(PageContent);
