import type { AppConfig } from '../config.ts';
import { startEmbeddedPostgres } from './embedded.ts';

export interface DatabaseTarget {
  url: string;
  /** Stops the embedded server when we started one; a no-op for an external database. */
  stop(): Promise<void>;
}

/** DATABASE_URL when set; otherwise an embedded PostgreSQL under the data directory. */
export async function resolveDatabase(config: AppConfig): Promise<DatabaseTarget> {
  if (config.databaseUrl) return { url: config.databaseUrl, stop: async () => {} };
  return startEmbeddedPostgres(config.dataDir, config.embeddedPgPort);
}
