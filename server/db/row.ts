/** Reads one field of a record by its property name: an entity's own, or a raw row's column. */
export type FieldReader<F extends string> = (field: F) => unknown;

const columns = new Map<string, string>();

/** The column a property maps to under MikroORM's default naming (`slotId` → `slot_id`). */
function column(field: string): string {
  let name = columns.get(field);
  if (name === undefined) {
    name = field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    columns.set(field, name);
  }
  return name;
}

/**
 * A raw row (snake_case columns, as `em.execute` returns it) read by property name, so one
 * mapper serves both an entity and a hot-path row that is never hydrated.
 */
export function rowReader<F extends string>(row: Record<string, unknown>): FieldReader<F> {
  return (field) => row[column(field)];
}

/** A timestamp as the driver gives it (a Date, or its text) as a Date. */
export function asDate(value: unknown): Date {
  return value instanceof Date ? value : new Date(String(value));
}

/**
 * A timestamp as epoch milliseconds: a Date's, or a number as a list query selects it
 * (`epochMsSql`), or the driver's text.
 */
export function asEpochMs(value: unknown): number {
  if (typeof value === 'number') return value;
  return asDate(value).getTime();
}

/** A time as whole seconds since the epoch (the Open API's and the sync protocols' unit). */
export function asEpochSeconds(value: unknown): number {
  return Math.floor(asEpochMs(value) / 1000);
}

/** A relation's id, whether the ORM holds it as an entity, a reference or the bare key. */
export function refId(ref: unknown): string | null {
  if (ref == null) return null;
  return typeof ref === 'string' ? ref : String((ref as { id: string }).id);
}

/** A timestamp column as epoch milliseconds (a float8, which pg reads as a JS number). */
export function epochMsSql(column: string): string {
  return `floor(extract(epoch from ${column}) * 1000)::float8`;
}
