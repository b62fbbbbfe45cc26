import { fromBufferPromise } from 'yauzl';

/** A zip's files and their text, read back with a real unzipper. */
export async function unzip(body: Buffer): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const zip = await fromBufferPromise(body, { lazyEntries: true });
  await new Promise<void>((resolve, reject) => {
    zip.on('error', reject);
    zip.on('end', resolve);
    zip.on('entry', (entry) => {
      zip.openReadStream(entry, (error, stream) => {
        if (error) return reject(error);
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('error', reject);
        stream.on('end', () => {
          files.set(entry.fileName, Buffer.concat(chunks).toString('utf8'));
          zip.readEntry();
        });
      });
    });
    zip.readEntry();
  });
  return files;
}
