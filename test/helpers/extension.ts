import { randomBytes } from 'node:crypto';
import type { AppDeps } from '../../server/deps.ts';
import {
  EXTENSION_CLIENT_HEADER,
  EXTENSION_SERVICE_ID,
  EXTENSION_VERSION,
  type UploadPolicy,
  uploadFile,
} from '../../src/schemas/extension.ts';
import { signedInUser } from './users.ts';

/** POSTs `file` to the policy's host as a browser form would; answers the store's status. */
export async function postUploadForm(
  policy: UploadPolicy,
  file: string,
  fields: Record<string, string> = {},
) {
  const form = new FormData();
  for (const [name, value] of Object.entries({ ...policy.fields, ...fields })) form.append(name, value);
  form.append('success_action_status', '200');
  form.append('file', new Blob([file], { type: 'text/plain' }), 'page.txt');
  return fetch(policy.host, { method: 'POST', body: form });
}

/** An uploaded page's file: the header line for `url`, then the HTML. */
export const pageFile = (url: string, html: string) => uploadFile({ contentType: 1, url }, html);

/**
 * A signed-in user whose browser extension connected by the device flow: the token the poll
 * answered, and the headers the extension sends with it.
 */
export async function extensionUser(deps: AppDeps, serverUrl: string, version = EXTENSION_VERSION) {
  const user = await signedInUser(deps);
  const clientId = randomBytes(16).toString('hex');
  await user.caller.sync.confirmDevice({ serviceId: EXTENSION_SERVICE_ID, clientId });
  const poll = await fetch(`${serverUrl}/api/sync/v1/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ clientId }),
  });
  const { token } = (await poll.json()) as { token: string };
  const headers = { Authorization: `Bearer ${token}`, [EXTENSION_CLIENT_HEADER]: `chrome/${version}` };
  return { ...user, extensionToken: token, headers };
}
