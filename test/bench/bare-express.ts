// The API bench's baseline (started by api.bench.ts, not run by hand): a bare Express 5 app that
// answers each request the bench captured from the real server with the very same status,
// headers and body, through the app's own compression setting. What the real server costs over
// this is the framework, the ORM and our code; the bytes and their compression are the same.
// Usage: node test/bench/bare-express.ts <captured.json> <port>
import fs from 'node:fs';
import express from 'express';
import { responseCompression } from '../../server/http/response-compression.ts';

export interface CapturedResponse {
  method: string;
  /** Path and query, exactly as the bench requests it. */
  url: string;
  status: number;
  headers: Record<string, string>;
  /** The uncompressed body, base64. */
  body: string;
}

const [file, port] = process.argv.slice(2);
if (!file || !port) throw new Error('usage: bare-express.ts <captured.json> <port>');
const captured = JSON.parse(fs.readFileSync(file, 'utf8')) as CapturedResponse[];
const answers = new Map(
  captured.map((c) => [`${c.method} ${c.url}`, { ...c, bytes: Buffer.from(c.body, 'base64') }]),
);

const app = express();
app.disable('x-powered-by');
app.set('etag', false);
app.use(responseCompression());
app.use((req, res) => {
  const answer = answers.get(`${req.method} ${req.originalUrl}`);
  if (!answer) {
    res.status(404).end();
    return;
  }
  res.status(answer.status).set(answer.headers).end(answer.bytes);
});
app.listen(Number(port), '127.0.0.1', () => console.log('listening'));
