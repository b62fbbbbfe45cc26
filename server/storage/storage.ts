// One interface for stored files (`local` under DATA_DIR/files, or any S3-compatible store): extension uploads and the images stored with notes. Keys are `/`-separated relative paths.

/** A browser-style upload: POST a multipart form with `fields` and then the file to `host`. */
export interface UploadForm {
  host: string;
  fields: Record<string, string>;
  /** The spec's names for what a driver signs with. */
  accessId: string;
  policy: string;
  signature: string;
}

export interface UploadRequest {
  key: string;
  maxBytes: number;
  expiresAt: Date;
  /** Margin's public origin (the local driver's host is Margin itself). */
  origin: string;
}

export interface FileStorage {
  readonly driver: 'local' | 's3';
  /** A signed form that lets its holder upload one file of at most `maxBytes` to `key` until `expiresAt`. */
  uploadForm(request: UploadRequest): Promise<UploadForm>;
  /** The file's bytes, or null when there is none; more than `maxBytes` is refused. */
  read(key: string, maxBytes: number): Promise<Buffer | null>;
  write(key: string, body: Buffer, contentType: string): Promise<void>;
  remove(key: string): Promise<void>;
  /** Every file whose key starts with `prefix` (a `/`-ended folder of keys, e.g. an account's). */
  removePrefix(prefix: string): Promise<void>;
  /** The keys of every file under `prefix` (a `/`-ended folder of keys), a page at a time. */
  list(prefix: string): AsyncIterable<string[]>;
}

/** A folder of keys as `removePrefix` and `list` take it: `/`-ended, so `1/` never reaches `10/`. */
export function folderPrefix(prefix: string): string {
  if (!prefix.endsWith('/')) throw new Error(`storage prefix must end with /: ${prefix}`);
  return prefix;
}

export class FileTooLargeError extends Error {
  constructor(key: string) {
    super(`stored file ${key} is larger than allowed`);
    this.name = 'FileTooLargeError';
  }
}
