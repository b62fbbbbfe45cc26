import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestHandler } from 'express';
import superjson from 'superjson';
import type { z } from 'zod';
import { zNoteListInput } from '../../src/schemas/notes.ts';
import type { AppDeps } from '../deps.ts';
import type { User } from '../domain/account/user.ts';
import { listNotesJson } from '../domain/notes/note-list.ts';
import { requestContext } from './context.ts';

/**
 * A signed-in query whose answer the domain writes as JSON text (PostgreSQL builds it): the
 * procedure of the same path answers batches and in-process callers with the parsed text.
 */
interface JsonTextQuery<Input extends z.ZodType> {
  input: Input;
  answer: (em: EntityManager, user: User, input: z.output<Input>) => Promise<string>;
}

const jsonTextQuery = <Input extends z.ZodType>(query: JsonTextQuery<Input>) =>
  query as JsonTextQuery<z.ZodType>;

/** By the path a tRPC URL names them. */
const JSON_TEXT_QUERIES: ReadonlyMap<string, JsonTextQuery<z.ZodType>> = new Map([
  ['notes.list', jsonTextQuery({ input: zNoteListInput, answer: listNotesJson })],
]);

/**
 * What tRPC sends for one successful query whose data is plain JSON (superjson's `{ json }` with
 * no meta; see transformer.ts), with the data's text put in as it is: over the streaming link,
 * the JSON lines of its head, the call's result and its data; else the batch's one-element array.
 */
function trpcAnswer(data: string, streamed: boolean): string {
  if (!streamed) return `[{"result":{"data":{"json":${data}}}}]`;
  return (
    '{"json":{"0":[[0],[null,0,0]]}}\n' +
    '{"json":[0,0,[[{"result":0}],["result",0,1]]]}\n' +
    '{"json":[1,0,[[{"data":0}],["data",0,2]]]}\n' +
    `{"json":[2,0,[[${data}]]]}\n`
  );
}

/** tRPC's reading of Accept when there is no trpc-accept header. */
const jsonlAccepted = (accept: string | undefined) =>
  accept?.split(',').some((type) => type.trim() === 'application/jsonl') ? 'application/jsonl' : undefined;

/** The one call's input a single-call batch URL carries (`?batch=1&input={"0":…}`), or undefined. */
function singleCallInput(url: string): unknown {
  const query = url.indexOf('?');
  if (query < 0) return undefined;
  const params = new URLSearchParams(url.slice(query + 1));
  if (params.get('batch') !== '1') return undefined;
  const batch = JSON.parse(params.get('input') ?? '{}') as Record<string, unknown>;
  const keys = Object.keys(batch);
  if (keys.length !== 1 || keys[0] !== '0') return undefined;
  return superjson.deserialize(batch[0] as Parameters<typeof superjson.deserialize>[0]);
}

/**
 * Answers a lone GET of a JSON-text query (the note list's pages as the client scrolls) with the
 * text PostgreSQL wrote, in tRPC's wire format, so its rows are never parsed, checked and
 * serialised again in JS. Anything else, and any call that is refused or fails (not signed in,
 * bad input, a folder not found), goes on to tRPC, which answers it as always: these are reads,
 * so asking again has no effect.
 */
export function jsonTextAnswers(deps: AppDeps): RequestHandler {
  return async (req, res, next) => {
    const query = req.method === 'GET' ? JSON_TEXT_QUERIES.get(req.path.slice(1)) : undefined;
    if (!query) return next();
    try {
      const input = query.input.safeParse(singleCallInput(req.originalUrl));
      if (!input.success) return next();
      const ctx = await requestContext(deps, req, res);
      if (!ctx.user) return next();
      const data = await query.answer(deps.orm.em.fork(), ctx.user, input.data);
      const streamed = (req.get('trpc-accept') ?? jsonlAccepted(req.get('accept'))) === 'application/jsonl';
      res.setHeader('content-type', 'application/json');
      res.setHeader('vary', 'trpc-accept, accept');
      res.end(trpcAnswer(data, streamed));
    } catch {
      next();
    }
  };
}
