import type { AppConfig } from './config.ts';

/**
 * The base URL of links that leave Margin from code with no request (push jobs, mails, logs):
 * PUBLIC_URL when set, else the address the server itself listens at (a wildcard host read as
 * localhost). With a request, server/web/public-origin.ts prefers the request's own origin.
 */
export function publicBaseUrl(config: Pick<AppConfig, 'publicUrl' | 'host' | 'port'>): string {
  if (config.publicUrl) return config.publicUrl.replace(/\/+$/, '');
  const wildcard = config.host === '0.0.0.0' || config.host === '::' || config.host === '';
  const host = wildcard ? 'localhost' : config.host.includes(':') ? `[${config.host}]` : config.host;
  return `http://${host}:${config.port}`;
}
