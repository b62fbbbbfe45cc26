import { defineEntity, p } from '@mikro-orm/core';
import { clock } from '../../clock.ts';
import { User } from './user.entity.ts';

/** A message sent from the tools area's feedback form; mailed to OPERATOR_EMAIL when set. */
export const FeedbackSchema = defineEntity({
  name: 'Feedback',
  tableName: 'feedback',
  indexes: [{ properties: ['user', 'createdAt'] }],
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    kind: p.string().length(16),
    message: p.text(),
    contact: p.string().length(254).nullable(),
    /** App version, browser, extension: what environment debug shows. */
    context: p.json<Record<string, string>>(),
    createdAt: p.datetime().onCreate(() => clock.now()),
    mailedAt: p.datetime().nullable(),
  },
});

export class Feedback extends FeedbackSchema.class {}
FeedbackSchema.setClass(Feedback);
