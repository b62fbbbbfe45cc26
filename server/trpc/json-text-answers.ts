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
 * test/api/note-list-json.test.ts holds both to tRPC's own bytes.
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

const NOT_A_SINGLE_CALL = Symbol('not a single call');

/**
 * The one call's input a single-call batch URL carries (`?batch=1&input={"0":…}`), as tRPC
 * reads it, or NOT_A_SINGLE_CALL for anything tRPC might read otherwise (no batch, another
 * shape of `input`, more than one input).
 */
function singleCallInput(url: string): unknown {
  const query = url.indexOf('?');
  if (query < 0) return NOT_A_SINGLE_CALL;
  const params = new URLSearchParams(url.slice(query + 1));
  const input = params.get('input');
  if (params.get('batch') !== '1' || !input) return NOT_A_SINGLE_CALL;
  const batch: unknown = JSON.parse(input);
  if (typeof batch !== 'object' || batch === null || Array.isArray(batch)) return NOT_A_SINGLE_CALL;
  const keys = Object.keys(batch);
  if (keys.length !== 1 || keys[0] !== '0') return NOT_A_SINGLE_CALL;
  return superjson.deserialize((batch as Record<'0', Parameters<typeof superjson.deserialize>[0]>)[0]);
}

/**
 * Answers a lone GET of a JSON-text query (the note list's pages as the client scrolls) with the
 * text PostgreSQL wrote, in tRPC's wire format, so its rows are never parsed, checked and
 * serialised again in JS. It runs after the /trpc limits (batch size, input depth) and the
 * app-wide middleware, and signs the caller in with tRPC's own context (made once per request,
 * so a call passed on is not signed in twice). Anything else, and any
 * call that is refused or fails (not signed in, bad input, a bad cursor, a folder not found),
 * goes on to tRPC untouched, which answers it as always, with its errors: these are reads, so
 * asking again has no effect.
 */
export function jsonTextAnswers(deps: AppDeps): RequestHandler {
  return async (req, res, next) => {
    const query = req.method === 'GET' ? JSON_TEXT_QUERIES.get(req.path.slice(1)) : undefined;
    // tRPC refuses a GET that names another content type; browsers send none.
    if (!query || req.get('content-type') !== undefined) return next();
    let data: string;
    try {
      const raw = singleCallInput(req.originalUrl);
      if (raw === NOT_A_SINGLE_CALL) return next();
      const input = query.input.safeParse(raw);
      if (!input.success) return next();
      const ctx = await requestContext(deps, req, res);
      if (!ctx.user || !ctx.session) return next();
      data = await query.answer(deps.orm.em.fork(), ctx.user, input.data);
    } catch {
      return next();
    }
    const streamed = (req.get('trpc-accept') ?? jsonlAccepted(req.get('accept'))) === 'application/jsonl';
    res.setHeader('content-type', 'application/json');
    res.setHeader('vary', 'trpc-accept, accept');
    res.end(trpcAnswer(data, streamed));
  };
}
