import { DAILY_TEXT_MAX } from '../../../src/schemas/daily.ts';
import {
  zApiDailyAppend,
  zApiDailyCreate,
  zApiDailyDay,
  zApiDailyNote,
  zDayParams,
} from '../../../src/schemas/openapi.ts';
import {
  appendToToday,
  getDay,
  moveHighlightsToDaily,
  saveDay,
  today,
} from '../../domain/daily/daily.service.ts';
import { operation } from '../operation.ts';
import { toApiDailyNote } from '../shapes.ts';

const tag = 'Daily notes';

/** A day's text at its longest in CJK (3 bytes a character as JSON), with room for the rest. */
const WRITE_DAY_BODY_MAX = 3 * DAILY_TEXT_MAX + 64 * 1024;

export const dailyOperations = [
  operation({
    method: 'get',
    path: '/daily/{day}',
    operationId: 'getDailyNote',
    summary: 'A day’s note (`today` or YYYY-MM-DD, in the account’s time zone)',
    tag,
    scope: 'daily',
    params: zDayParams,
    response: zApiDailyDay,
    handle: async ({ em, user, params }) => {
      const day = await getDay(em, user, params.day === 'today' ? today(user) : params.day);
      return { ...toApiDailyNote(day), entries: day.entries.map(toApiDailyNote) };
    },
  }),
  operation({
    method: 'post',
    path: '/daily',
    operationId: 'writeDailyNote',
    summary: 'Write a day’s note',
    description: 'Makes the day’s note, or replaces its text (today unless `date` is given).',
    tag,
    scope: 'daily',
    body: zApiDailyCreate,
    bodyMax: WRITE_DAY_BODY_MAX,
    response: zApiDailyNote,
    status: 201,
    handle: async (call) => {
      const { em, user, body } = call;
      const date = body.date ?? today(user);
      const day = await getDay(em, user, date);
      const { merged: _, ...saved } = await saveDay(call, user, {
        date,
        text: body.text,
        baseText: day.text,
        baseVersion: day.version,
      });
      return toApiDailyNote(saved);
    },
  }),
  operation({
    method: 'post',
    path: '/daily/today/append',
    operationId: 'appendToToday',
    summary: 'Add text, or quote a highlight, at the end of today’s note',
    tag,
    scope: 'daily',
    body: zApiDailyAppend,
    refuses: { '404': 'The highlight (`highlightId`) is not found, or not yours.' },
    response: zApiDailyNote,
    handle: async (call) => {
      const { user, body } = call;
      return toApiDailyNote(
        'text' in body
          ? await appendToToday(call, user, body.text)
          : await moveHighlightsToDaily(call, user, [body.highlightId], 'today'),
      );
    },
  }),
];
