import type { EntityManager } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import {
  FEEDBACK_LIST_MAX,
  type FeedbackEnvironment,
  type FeedbackView,
  type zSendFeedbackInput,
} from '../../../src/schemas/feedback.ts';
import { clock } from '../../clock.ts';
import { Feedback, type User } from '../../db/entities/index.ts';
import { enqueue, type Queues } from '../../queue.ts';
import { enforceLimits, LIMITS, type LimitStore } from '../rate-limit.ts';
import { feedbackMail } from './feedback-mail.ts';

export interface FeedbackDeps extends LimitStore {
  queues: Queues;
  /** OPERATOR_EMAIL: who is mailed each message. Unset, messages are only stored. */
  operatorEmail: string | undefined;
  /** The language the operator's mail is written in. */
  operatorLanguage: string;
}

type SendFeedbackData = z.output<typeof zSendFeedbackInput>;

function view(feedback: Feedback): FeedbackView {
  return {
    id: feedback.id,
    kind: feedback.kind as FeedbackView['kind'],
    message: feedback.message,
    contact: feedback.contact ?? null,
    createdAt: feedback.createdAt,
  };
}

/** The environment as the table keeps it: only the fields the browser gave. */
function storedEnvironment(environment: FeedbackEnvironment | null): Record<string, string> {
  return Object.fromEntries(Object.entries(environment ?? {}).filter(([, value]) => value));
}

/**
 * Stores one message from the feedback form, then, when the install names an operator, queues a
 * mail to them (one job per message: a retried job cannot mail twice) and marks the row mailed.
 * LIMITS.feedback counts each try before anything is stored, so parallel sends cannot share a slot.
 */
export async function sendFeedback(
  em: EntityManager,
  deps: FeedbackDeps,
  user: User,
  input: SendFeedbackData,
): Promise<FeedbackView> {
  await enforceLimits(deps.redis, deps.redisPrefix, [
    { key: `feedback:hour:${user.id}`, ...LIMITS.feedback.perUserHour },
    { key: `feedback:day:${user.id}`, ...LIMITS.feedback.perUserDay },
  ]);
  const context = storedEnvironment(input.environment);
  const feedback = em.create(Feedback, {
    user,
    kind: input.kind,
    message: input.message,
    contact: input.contact,
    context,
  });
  await em.flush();
  if (deps.operatorEmail) {
    await enqueue(deps.queues, 'mail', {
      key: `feedback-${feedback.id}`,
      userId: user.id,
      ...feedbackMail({
        to: deps.operatorEmail,
        language: deps.operatorLanguage,
        kind: input.kind,
        message: input.message,
        accountId: user.accountId,
        contact: input.contact,
        environment: context,
        sentAt: feedback.createdAt,
      }),
    });
    feedback.mailedAt = clock.now();
    await em.flush();
  }
  return view(feedback);
}

/** The user's own latest messages, newest first. */
export async function listFeedback(em: EntityManager, user: User): Promise<FeedbackView[]> {
  const rows = await em.find(
    Feedback,
    { user },
    { orderBy: { createdAt: 'desc', id: 'desc' }, limit: FEEDBACK_LIST_MAX },
  );
  return rows.map(view);
}
