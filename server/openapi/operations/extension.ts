import { z } from 'zod';
import { deepLinkSearch } from '../../../src/deep-link.ts';
import { DEFAULT_SLOT_COLOURS, TextTooltipStyle, ViewStyle } from '../../../src/enums.ts';
import {
  DEFAULT_SHORTCUTS,
  zExtensionPage,
  zExtensionPageQuery,
  zExtensionSettings,
  zUploadCompleteInput,
  zUploadPolicy,
  zUploadPolicyInput,
  zWebPageUrl,
} from '../../../src/schemas/extension.ts';
import { zApiNote } from '../../../src/schemas/openapi.ts';
import { COLOUR_FIELDS } from '../../../src/schemas/user-settings.ts';
import { uploadDeps } from '../../deps.ts';
import { getUserSettings } from '../../domain/account/user-settings.service.ts';
import { clipUrl } from '../../domain/notes/clip.service.ts';
import { pageNote } from '../../domain/notes/note-by-url.ts';
import { toNoteSummary } from '../../domain/notes/note-view.ts';
import { completeUpload, createUploadPolicy } from '../../domain/uploads/uploads.service.ts';
import { operation } from '../operation.ts';
import { toApiHighlight, toApiNote } from '../shapes.ts';

const tag = 'Extension';

/** What the browser extension reads, the upload policy it saves rendered pages with, and saving by address. */
export const extensionOperations = [
  operation({
    method: 'get',
    path: '/extension/settings',
    operationId: 'getExtensionSettings',
    summary: 'The extension’s preferences',
    description:
      'Text tooltip style, the six highlight colours and the shortcuts, defaults filled in; the ' +
      'account’s language; the oldest extension version the server accepts.',
    tag,
    scope: 'read',
    extension: 'highlights',
    response: zExtensionSettings,
    handle: async ({ em, user, deps }) => {
      const settings = await getUserSettings(em, user);
      return {
        textTooltipStyle: settings.textTooltipStyle ?? TextTooltipStyle.moreTools,
        colours: Object.fromEntries(
          COLOUR_FIELDS.map((field, i) => [
            field,
            settings[field] ?? DEFAULT_SLOT_COLOURS[(i + 1) as keyof typeof DEFAULT_SLOT_COLOURS],
          ]),
        ) as Record<(typeof COLOUR_FIELDS)[number], string>,
        shortcuts: settings.shortcuts ?? DEFAULT_SHORTCUTS,
        language: user.language ?? 'en',
        minVersion: deps.config.extensionMinVersion,
      };
    },
  }),
  operation({
    method: 'get',
    path: '/extension/page',
    operationId: 'getExtensionPage',
    summary: 'The saved note of a page, with its highlights',
    description: 'By the page’s address, as saving normalises it; `note` is null for a page not saved.',
    tag,
    scope: 'read',
    extension: 'highlights',
    query: zExtensionPageQuery,
    response: zExtensionPage,
    handle: async ({ em, user, origin, query }) => {
      const page = await pageNote(em, user, query.url);
      if (!page) return { note: null, highlights: [] };
      const { note, highlights } = page;
      return {
        note: {
          id: note.id,
          title: note.title,
          highlightCount: highlights.length,
          readerUrl: `${origin}/${deepLinkSearch({ kind: 'note', noteId: note.id, viewStyle: ViewStyle.article })}`,
        },
        highlights: highlights.map(toApiHighlight),
      };
    },
  }),
  operation({
    method: 'post',
    path: '/extension/uploads',
    operationId: 'createUploadPolicy',
    summary: 'An upload policy for a rendered page',
    description:
      'POST a multipart form to `host` with every field of `fields`, `success_action_status` 200 and ' +
      'the `file` (a JSON header line, then the HTML); on 200, POST `{ key }` to `callback`. The ' +
      'policy expires after 15 minutes and takes at most `maxBytes`.',
    tag,
    scope: 'write',
    extension: 'clip',
    body: zUploadPolicyInput,
    response: zUploadPolicy,
    status: 201,
    handle: ({ em, user, deps, origin, body }) =>
      createUploadPolicy(em, uploadDeps(deps), user, { url: body.url, origin }),
  }),
  operation({
    method: 'post',
    path: '/extension/uploads/complete',
    operationId: 'completeUpload',
    summary: 'Save the uploaded page',
    description:
      'The upload policy’s callback: the uploaded page is parsed into the note for the policy’s ' +
      'address. Calling it again answers with the same note.',
    tag,
    scope: 'write',
    extension: 'clip',
    body: zUploadCompleteInput,
    refuses: { '404': 'No upload was made with this key, or it is not yours.' },
    response: z.object({ note: zApiNote, created: z.boolean() }),
    handle: async ({ em, user, deps, body }) => {
      const { note, created } = await completeUpload(em, uploadDeps(deps), user, body.key);
      return { note: toApiNote(toNoteSummary(note)), created };
    },
  }),
  operation({
    method: 'post',
    path: '/extension/notes',
    operationId: 'savePageByUrl',
    summary: 'Save a page by its address',
    description:
      'For a page the extension cannot read as rendered: the server fetches and parses it. Saving ' +
      'it again answers with the same note.',
    tag,
    scope: 'write',
    extension: 'clip',
    body: z.object({ url: zWebPageUrl }).meta({ id: 'SavePageByUrl' }),
    response: z.object({ note: zApiNote, created: z.boolean() }),
    status: 201,
    handle: async (call) => {
      const { user, body } = call;
      const { note, created } = await clipUrl(call, user, body.url);
      return { note: toApiNote(toNoteSummary(note)), created };
    },
  }),
];
