import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../../server/app.ts';
import type { AppDeps } from '../../server/deps.ts';

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

/** The real app on an ephemeral loopback port (for browsers and raw HTTP clients). */
export async function startServer(deps: AppDeps): Promise<RunningServer> {
  const server: Server = createApp(deps).listen(0, '127.0.0.1');
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
