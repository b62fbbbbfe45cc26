// `npm run migrate`: applies pending migrations to DATABASE_URL (or the embedded database).
import { loadConfig } from '../config.ts';
import { resolveDatabase } from '../db/connect.ts';
import { createOrm, migrate } from '../db/orm.ts';

const config = loadConfig();
const database = await resolveDatabase(config);
const orm = await createOrm(database.url);
try {
  const applied = await migrate(orm);
  console.log(applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
} finally {
  await orm.close();
  await database.stop();
}
