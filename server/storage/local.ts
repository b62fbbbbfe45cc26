import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Dirent } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import {
  type FileStorage,
  FileTooLargeError,
  folderPrefix,
  type UploadForm,
  type UploadRequest,
} from './storage.ts';

/** What the local driver signs: the key, the size limit and the expiry (OSS's policy shape). */
const zLocalPolicy = z.object({
  expiration: z.iso.datetime(),
  conditions: z.tuple([
    z.object({ key: z.string() }),
    z.tuple([z.literal('content-length-range'), z.literal(0), z.number().int()]),
  ]),
});
export type LocalPolicy = z.infer<typeof zLocalPolicy>;

/** The access id the local driver names itself by (there is no other account to name). */
export const LOCAL_ACCESS_ID = 'margin-local';
/** Margin's own upload target when storage is local. */
export const LOCAL_UPLOAD_PATH = '/upload';

const SECRET_FILE = '.upload-secret';
const PARTIAL_SUFFIX = '.partial';
const LIST_PAGE = 1000;

/** Why a local upload form is refused; each is answered 403 without saying which. */
export type LocalUploadRefusal = 'malformed' | 'signature' | 'expired' | 'key' | 'size';

/**
 * Files under `<dataDir>/files`. Upload forms are signed with a secret kept beside the files (made
 * on first use), so every server process that shares the directory accepts them.
 */
export class LocalStorage implements FileStorage {
  readonly driver = 'local' as const;
  readonly root: string;
  private secret: Promise<Buffer> | undefined;

  constructor(dataDir: string) {
    this.root = path.join(dataDir, 'files');
  }

  private pathOf(key: string): string {
    const resolved = path.resolve(this.root, key);
    if (!resolved.startsWith(`${this.root}${path.sep}`))
      throw new Error(`storage key outside the store: ${key}`);
    return resolved;
  }

  private signingSecret(): Promise<Buffer> {
    this.secret ??= (async () => {
      const file = path.join(this.root, SECRET_FILE);
      await fs.mkdir(this.root, { recursive: true });
      try {
        // `wx`: of two processes starting at once, one writes and both read what it wrote.
        await fs.writeFile(file, randomBytes(32).toString('base64'), { flag: 'wx', mode: 0o600 });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      return Buffer.from((await fs.readFile(file, 'utf8')).trim(), 'base64');
    })();
    return this.secret;
  }

  private async sign(policy: string): Promise<string> {
    return createHmac('sha256', await this.signingSecret())
      .update(policy)
      .digest('base64');
  }

  async uploadForm(request: UploadRequest): Promise<UploadForm> {
    const document: LocalPolicy = {
      expiration: request.expiresAt.toISOString(),
      conditions: [{ key: request.key }, ['content-length-range', 0, request.maxBytes]],
    };
    const policy = Buffer.from(JSON.stringify(document)).toString('base64');
    const signature = await this.sign(policy);
    return {
      host: `${request.origin}${LOCAL_UPLOAD_PATH}`,
      fields: { key: request.key, OSSAccessKeyId: LOCAL_ACCESS_ID, policy, Signature: signature },
      accessId: LOCAL_ACCESS_ID,
      policy,
      signature,
    };
  }

  /** Checks a posted form against its signed policy; the refusal, or null when the file may be kept. */
  async checkUpload(
    fields: { key?: string; policy?: string; signature?: string },
    size: number,
    now: Date,
  ): Promise<LocalUploadRefusal | null> {
    if (!fields.key || !fields.policy || !fields.signature) return 'malformed';
    const expected = Buffer.from(await this.sign(fields.policy));
    const given = Buffer.from(fields.signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'signature';
    let document: LocalPolicy;
    try {
      document = zLocalPolicy.parse(JSON.parse(Buffer.from(fields.policy, 'base64').toString('utf8')));
    } catch {
      return 'malformed';
    }
    if (new Date(document.expiration).getTime() <= now.getTime()) return 'expired';
    if (document.conditions[0].key !== fields.key) return 'key';
    if (size > document.conditions[1][2]) return 'size';
    return null;
  }

  async read(key: string, maxBytes: number): Promise<Buffer | null> {
    const file = this.pathOf(key);
    try {
      const { size } = await fs.stat(file);
      if (size > maxBytes) throw new FileTooLargeError(key);
      return await fs.readFile(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async write(key: string, body: Buffer): Promise<void> {
    const file = this.pathOf(key);
    await fs.mkdir(path.dirname(file), { recursive: true });
    // Written aside and renamed, so a reader never sees half a file.
    const partial = `${file}.${randomBytes(6).toString('hex')}${PARTIAL_SUFFIX}`;
    await fs.writeFile(partial, body);
    await fs.rename(partial, file);
  }

  async remove(key: string): Promise<void> {
    await fs.rm(this.pathOf(key), { force: true });
  }

  async removePrefix(prefix: string): Promise<void> {
    await fs.rm(this.pathOf(folderPrefix(prefix)), { recursive: true, force: true });
  }

  async *list(prefix: string): AsyncIterable<string[]> {
    const folder = this.pathOf(folderPrefix(prefix));
    let entries: Dirent[];
    try {
      entries = await fs.readdir(folder, { recursive: true, withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    const keys = entries
      // A `.partial` file is a write in progress (see `write`), not yet a stored file.
      .filter((entry) => entry.isFile() && !entry.name.endsWith(PARTIAL_SUFFIX))
      .map((entry) =>
        path.relative(this.root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'),
      );
    for (let start = 0; start < keys.length; start += LIST_PAGE) yield keys.slice(start, start + LIST_PAGE);
  }
}
