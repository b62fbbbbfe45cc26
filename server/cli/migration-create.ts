// `npm run migration:create -- [name]`: diffs the entities against the snapshot and writes a
// migration under migrations/. Add it to migrations/index.ts, then read it before committing.
import { loadConfig } from '../config.ts';
import { resolveDatabase } from '../db/connect.ts';
import { createOrm } from '../db/orm.ts';

const config = loadConfig();
const database = await resolveDatabase(config);
const orm = await createOrm(database.url);
try {
  const result = await orm.migrator.create(undefined, false, false, process.argv[2]);
  console.log(result.diff.up.length ? `written: ${result.fileName}` : 'no changes');
} finally {
  await orm.close();
  await database.stop();
}
