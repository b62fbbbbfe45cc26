/**
 * A PostgreSQL array literal (`{"a","b"}`) for a raw-SQL parameter cast with `?::text[]`.
 * Raw bindings expand JavaScript arrays into comma lists, so arrays travel as one literal.
 */
export function pgTextArray(values: readonly string[]): string {
  return `{${values.map((v) => `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`).join(',')}}`;
}
