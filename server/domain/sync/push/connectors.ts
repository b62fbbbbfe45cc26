import type { PushApp } from '../../../../src/schemas/sync.ts';
import { flomo } from './flomo.ts';
import type { PushEnv } from './push-http.ts';
import { destinationKey } from './push-records.ts';
import type { PushConnector, PushScope, PushTarget } from './push-target.ts';
import { siyuan } from './siyuan.ts';
import { workflowy } from './workflowy.ts';

/** A connector with its credentials' type left inside: what the app-independent code calls. */
export interface Connector {
  /** Checks what the user entered; answers what to save and the destination key of push records. */
  connect(
    input: unknown,
    env: PushEnv,
  ): Promise<{ credentials: Record<string, unknown>; destination: string }>;
  /** The saved credentials' destination key, or undefined when they are not (any longer) usable. */
  destinationOf(saved: unknown): string | undefined;
  /** Opens the tool with saved credentials that `destinationOf` accepted. */
  open(saved: unknown, scope: PushScope): PushTarget;
}

function erase<C extends Record<string, unknown>>(connector: PushConnector<C>): Connector {
  const parse = (saved: unknown) => connector.saved.safeParse(saved);
  return {
    async connect(input, env) {
      const credentials = await connector.connect(input, env);
      return { credentials, destination: destinationKey(connector.destination(credentials)) };
    },
    destinationOf(saved) {
      const parsed = parse(saved);
      return parsed.success ? destinationKey(connector.destination(parsed.data)) : undefined;
    },
    open(saved, scope) {
      return connector.open(connector.saved.parse(saved), scope);
    },
  };
}

export const CONNECTORS: Readonly<Record<PushApp, Connector>> = {
  flomo: erase(flomo),
  workflowy: erase(workflowy),
  siyuan: erase(siyuan),
};
