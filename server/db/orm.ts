import { Migrator } from '@mikro-orm/migrations';
import { defineConfig, MikroORM, type Options } from '@mikro-orm/postgresql';
import { MIGRATIONS } from '../../migrations/index.ts';
import { log } from '../log.ts';
import { ENTITIES } from './entities/index.ts';

export type Orm = MikroORM;

/** The one ORM configuration, shared by the server, the workers and the CLIs. */
function ormOptions(clientUrl: string, overrides: Partial<Options> = {}): Options {
  return defineConfig({
    clientUrl,
    entities: ENTITIES,
    extensions: [Migrator],
    migrations: {
      path: 'migrations',
      emit: 'ts',
      migrationsList: MIGRATIONS,
      snapshot: true,
      snapshotOnMigrate: false,
      snapshotName: '.snapshot-margin',
      transactional: true,
      allOrNothing: true,
    },
    pool: { min: 0, max: 10 },
    debug: false,
    // MikroORM's own lines (the migrator's progress) go through our JSON logger, uncoloured.
    colors: false,
    logger: (message: string) => log.debug('orm', { message }),
    ...overrides,
  });
}

export async function createOrm(clientUrl: string, overrides: Partial<Options> = {}): Promise<Orm> {
  return MikroORM.init(ormOptions(clientUrl, overrides));
}

export async function migrate(orm: Orm): Promise<string[]> {
  const applied = await orm.migrator.up();
  return applied.map((m) => m.name);
}
