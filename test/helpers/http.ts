import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { createApp } from '../../server/app.ts';
import type { AppDeps } from '../../server/deps.ts';

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

/** The real app on an ephemeral loopback port (for browsers and raw HTTP clients). */
export function startServer(deps: AppDeps): Promise<RunningServer> {
  return listenOnLoopback(createApp(deps));
}

/** An Express app (or part of one) on an ephemeral loopback port. */
export async function listenOnLoopback(handler: Express): Promise<RunningServer> {
  const server: Server = handler.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
