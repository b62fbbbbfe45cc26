import type { EntityManager } from '@mikro-orm/postgresql';
import {
  anyOrderTsqueryLiteral,
  POSITIONS_VERSION,
  queryParts,
  substringChecks,
  tsqueryLiteral,
  UNPOSITIONED_TSQUERY,
} from '../../../src/search/tokens.ts';
import { preparedRows } from '../../db/prepared.ts';

/** A piece of SQL with its `?` parameters, in order. */
export interface SqlCondition {
  sql: string;
  params: unknown[];
}

/** The rows a search runs over. */
export interface SearchTarget {
  /** The table and its alias in the statement. */
  table: 'note' | 'highlight';
  alias: string;
  /** Its tsvector columns, written by tsvectorLiteral: a row matches when any of them does. */
  vectors: readonly string[];
  /** Whose rows they are. */
  userId: number;
  /** SQL true when the row's text contains `run`, for rows whose vectors lack positions. */
  contains: (run: string) => SqlCondition;
}

const anyVector = (alias: string, vectors: readonly string[]) =>
  `(${vectors.map((vector) => `${alias}.${vector} @@ ?::tsquery`).join(' or ')})`;

/**
 * Whether the query's CJK phrases can be matched on positions alone in the target's rows: true
 * for a query without a CJK run of three or more characters (no database read), else when the
 * stored vectors carry positions (the worker's one-time re-index has run:
 * server/domain/search/reindex.ts) and none of the user's rows is marked UNPOSITIONED (a text
 * past PostgreSQL's position limits). Counted, not EXISTS: for EXISTS the planner expects an
 * early first row and scans the table for a mark that is seldom there; the count reads the
 * mark's index entries.
 */
export async function exactPhrases(
  em: EntityManager,
  query: string,
  target: Pick<SearchTarget, 'table' | 'vectors' | 'userId'>,
): Promise<boolean> {
  if (!substringChecks(queryParts(query)).length) return true;
  const [row] = await preparedRows<{ exact: boolean }>(
    em,
    `select coalesce((select "version" from "maintenance_state" where "name" = 'search-index'), 0) >= ?
       and (select count(*) from ${target.table} u where u.user_id = ? and ${anyVector('u', target.vectors)}) = 0
       as "exact"`,
    [POSITIONS_VERSION, target.userId, ...target.vectors.map(() => UNPOSITIONED_TSQUERY)],
  );
  return row?.exact ?? false;
}

/** A search in two steps, for a statement that orders many candidates before it takes a page. */
export interface SearchStages {
  /** Rows that can match (all words, the runs' bigrams in any order): exact on the GIN index, no vector read. */
  candidates: SqlCondition;
  /**
   * The check of the CJK phrases (runs of three or more characters) on a candidate's vectors, or
   * null when the query has none. It reads the vectors, so it is best applied to the candidates
   * in order, until the page is full.
   */
  phrases: SqlCondition | null;
}

/**
 * A keyword search (src/search/tokens.ts) in two steps, or null for an empty query. A row matches
 * when any of the target's vectors holds all words and CJK runs, a run of three or more
 * characters as the phrase of its bigrams (checked on the row's own vector; no text is read).
 *
 * Unless `exactPhrases` (as exactPhrases answers), a candidate whose vectors miss a phrase (a row
 * marked UNPOSITIONED, or any row while the stored vectors predate positions) matches when the
 * run is in its text (`contains`).
 */
export function searchStages(
  query: string,
  target: SearchTarget,
  exactPhrases: boolean,
): SearchStages | null {
  const parts = queryParts(query);
  const exact = tsqueryLiteral(parts);
  if (!exact) return null;
  const match = (tsquery: string): SqlCondition => ({
    sql: anyVector(target.alias, target.vectors),
    params: target.vectors.map(() => tsquery),
  });
  const anyOrder = anyOrderTsqueryLiteral(parts);
  if (!anyOrder) return { candidates: match(exact), phrases: null };
  if (exactPhrases) return { candidates: match(anyOrder), phrases: match(exact) };
  const checks = substringChecks(parts).map(target.contains);
  return {
    candidates: match(anyOrder),
    phrases: {
      sql: `(${match(exact).sql} or (${checks.map((c) => c.sql).join(' and ')}))`,
      params: [...match(exact).params, ...checks.flatMap((c) => c.params)],
    },
  };
}

/** searchCondition with `exactPhrases` asked of the database first. */
export async function userSearchCondition(
  em: EntityManager,
  query: string,
  target: SearchTarget,
): Promise<SqlCondition | null> {
  return searchCondition(query, target, await exactPhrases(em, query, target));
}

/** searchStages as one WHERE condition, for a statement whose candidates are few or cheap to check. */
export function searchCondition(
  query: string,
  target: SearchTarget,
  exactPhrases: boolean,
): SqlCondition | null {
  const stages = searchStages(query, target, exactPhrases);
  if (!stages?.phrases) return stages?.candidates ?? null;
  // The phrases imply the candidates' terms; alone, they let the GIN index serve them directly.
  if (exactPhrases) return stages.phrases;
  return {
    sql: `${stages.candidates.sql} and ${stages.phrases.sql}`,
    params: [...stages.candidates.params, ...stages.phrases.params],
  };
}
