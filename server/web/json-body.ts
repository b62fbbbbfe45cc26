import express, { type RequestHandler } from 'express';
import { JSON_MAX_DEPTH } from '../../src/http-limits.ts';

// JSON bodies as every front reads them: a cap on the size, chosen by the front, and a nesting
// limit checked on the raw text, so neither the check nor what parses and re-serialises the
// JSON after it can overflow the stack.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

function depthExceeds(length: number, codeAt: (i: number) => number, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < length; i++) {
    const code = codeAt(i);
    if (inString) {
      if (code === BACKSLASH) i++;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) inString = true;
    else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      if (++depth > max) return true;
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) depth--;
  }
  return false;
}

/**
 * Whether JSON text nests objects and arrays deeper than `max`, read in one loop without
 * parsing. Bytes are UTF-8 (no multi-byte sequence holds an ASCII byte); malformed JSON is
 * left for the parser to refuse.
 */
export function jsonDepthExceeds(json: string | Uint8Array, max = JSON_MAX_DEPTH): boolean {
  return typeof json === 'string'
    ? depthExceeds(json.length, (i) => json.charCodeAt(i), max)
    : depthExceeds(json.length, (i) => json[i] as number, max);
}

/** An Express-style HTTP error: body-parser's, or ours for JSON nested too deep. */
export class HttpError extends Error {
  readonly status: number;
  readonly type: string;
  constructor(status: number, type: string) {
    super(type);
    this.status = status;
    this.type = type;
  }
}

/** The refusal of JSON nested deeper than the limit. */
export const jsonTooDeep = (): HttpError => new HttpError(400, 'json.too.deep');

/** express.json with a body cap and the depth limit. */
export function jsonBody(limit: number): RequestHandler {
  return express.json({
    limit,
    verify: (_req, _res, body, encoding) => {
      const utf8 = !encoding || encoding.toLowerCase().replace('-', '') === 'utf8';
      if (jsonDepthExceeds(utf8 ? body : new TextDecoder(encoding).decode(body))) throw jsonTooDeep();
    },
  });
}
