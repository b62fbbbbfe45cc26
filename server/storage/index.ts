import type { AppConfig } from '../config.ts';
import { LocalStorage } from './local.ts';
import { S3Storage } from './s3.ts';
import type { FileStorage } from './storage.ts';

export type { FileStorage } from './storage.ts';
export { FileTooLargeError } from './storage.ts';

/** The store the configuration names. */
export function createStorage(config: Pick<AppConfig, 'storage' | 'dataDir'>): FileStorage {
  return config.storage.driver === 's3' ? new S3Storage(config.storage) : new LocalStorage(config.dataDir);
}
