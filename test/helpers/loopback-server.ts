// The HTTP plumbing local test servers share (payment providers, the webhook receiver): a server on
// an ephemeral loopback port, and request bodies read whole.
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Starts `server` on 127.0.0.1: its base URL, and a close that also drops kept-alive connections. */
export async function listenOnLoopback(server: Server): Promise<{ url: string; close(): Promise<void> }> {
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
