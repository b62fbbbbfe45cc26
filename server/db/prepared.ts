import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Pool, QueryResultRow } from 'pg';

/**
 * Reads on hot paths go to pg's pool as named prepared statements. `em.execute` inlines every
 * parameter into the SQL text (so PostgreSQL parses and plans each call anew) and runs it
 * through Kysely's layers; a named statement is parsed once per connection and its parameters
 * travel apart. The pool is the ORM's own (same connections, same type parsers, so rows look
 * exactly as `em.execute` returns them); inside a transaction the call stays on the
 * transaction's connection through `em.execute`.
 */

interface Statement {
  text: string;
  /** Unset for a search and past NAMED_MAX distinct texts: those run unnamed (still with separate parameters). */
  name: string | undefined;
}

/** PostgreSQL keeps each named statement per connection, so their number is bounded. */
const NAMED_MAX = 500;
const statements = new Map<string, Statement>();

/**
 * A keyword search runs unnamed: how many rows its words match varies by orders of magnitude, so
 * PostgreSQL must plan it with its words each time (a named statement may move to one generic
 * plan after five runs).
 */
const SEARCH = '::tsquery';

/** `?` placeholders (as `em.execute` takes them) as `$1…$n`, named by a hash of the text. */
function statementOf(sql: string): Statement {
  const known = statements.get(sql);
  if (known) return known;
  let n = 0;
  const text = sql.replace(/\?/g, () => `$${++n}`);
  if (statements.size >= NAMED_MAX || sql.includes(SEARCH)) return { text, name: undefined };
  const statement = { text, name: `m_${createHash('sha256').update(text).digest('base64url').slice(0, 22)}` };
  statements.set(sql, statement);
  return statement;
}

const pools = new WeakMap<object, Pool>();

async function poolOf(em: EntityManager): Promise<Pool> {
  const connection = em.getConnection();
  let pool = pools.get(connection);
  if (!pool) {
    pool = await connection.getNativeClient();
    pools.set(connection, pool);
  }
  return pool;
}

/** Runs a read (`?` placeholders, no `?` anywhere else in the text) and returns its rows. */
export async function preparedRows<Row extends QueryResultRow = Record<string, unknown>>(
  em: EntityManager,
  sql: string,
  params: readonly unknown[],
): Promise<Row[]> {
  if (em.isInTransaction()) return em.execute<Row[]>(sql, [...params]);
  const { text, name } = statementOf(sql);
  const result = await (await poolOf(em)).query<Row>({ text, values: [...params], ...(name && { name }) });
  return result.rows;
}
