import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { clock } from '../clock.ts';
import type { StorageConfig } from '../config.ts';
import {
  type FileStorage,
  FileTooLargeError,
  folderPrefix,
  type UploadForm,
  type UploadRequest,
} from './storage.ts';

type S3Settings = Extract<StorageConfig, { driver: 's3' }>;

/** Any S3-compatible store, through the AWS SDK; uploads are presigned POSTs (SigV4 policies). */
export class S3Storage implements FileStorage {
  readonly driver = 's3' as const;
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(settings: S3Settings) {
    this.bucket = settings.bucket;
    this.client = new S3Client({
      region: settings.region,
      endpoint: settings.endpoint,
      forcePathStyle: settings.forcePathStyle,
      credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    });
  }

  async uploadForm(request: UploadRequest): Promise<UploadForm> {
    const expiresInSeconds = Math.max(
      1,
      Math.round((request.expiresAt.getTime() - clock.now().getTime()) / 1000),
    );
    const { url, fields } = await createPresignedPost(this.client, {
      Bucket: this.bucket,
      Key: request.key,
      Conditions: [
        ['content-length-range', 0, request.maxBytes],
        ['eq', '$success_action_status', '200'],
      ],
      Fields: { success_action_status: '200' },
      Expires: expiresInSeconds,
    });
    return {
      host: url,
      fields,
      accessId: fields['X-Amz-Credential'] ?? '',
      policy: fields.Policy ?? '',
      signature: fields['X-Amz-Signature'] ?? '',
    };
  }

  async read(key: string, maxBytes: number): Promise<Buffer | null> {
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      if ((object.ContentLength ?? 0) > maxBytes) {
        object.Body?.transformToWebStream().cancel();
        throw new FileTooLargeError(key);
      }
      return Buffer.from((await object.Body?.transformToByteArray()) ?? []);
    } catch (error) {
      if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') return null;
      throw error;
    }
  }

  async write(key: string, body: Buffer, contentType: string): Promise<void> {
    await this.client.send(
      new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: contentType }),
    );
  }

  async remove(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async *list(prefix: string): AsyncIterable<string[]> {
    let token: string | undefined;
    do {
      const listed = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: folderPrefix(prefix),
          ContinuationToken: token,
        }),
      );
      const keys = (listed.Contents ?? []).flatMap((object) => (object.Key ? [object.Key] : []));
      if (keys.length) yield keys;
      token = listed.IsTruncated ? listed.NextContinuationToken : undefined;
    } while (token);
  }

  async removePrefix(prefix: string): Promise<void> {
    const folder = folderPrefix(prefix);
    // Listed a page (up to 1,000 keys) at a time, each page deleted in one request.
    for (;;) {
      const listed = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: folder }),
      );
      const keys = (listed.Contents ?? []).flatMap((object) => (object.Key ? [{ Key: object.Key }] : []));
      if (!keys.length) return;
      await this.client.send(
        new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: keys, Quiet: true } }),
      );
      if (!listed.IsTruncated) return;
    }
  }
}
