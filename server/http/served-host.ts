import { isIP } from 'node:net';
import type { Request, RequestHandler } from 'express';
import type { AppConfig } from '../config.ts';
import { requestLanguage, translator } from '../i18n.ts';

/** `name[:port]` as a Host header carries it: a DNS name or IPv4 address, or an IPv6 one in brackets. */
const HOST_HEADER = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?$/i;

/** What a loopback connection may call the server by. */
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

/** Addresses HOST may give that open every interface rather than name one. */
const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]']);

/** An address as a Host header writes it: IPv4-mapped IPv6 as IPv4, IPv6 in brackets, lowercase. */
function asHostName(address: string): string {
  const plain = address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
  return (isIP(plain) === 6 ? `[${plain}]` : plain).toLowerCase();
}

const isLoopback = (hostName: string) => hostName === '[::1]' || /^127\./.test(hostName);

/**
 * Whether the request names the server by an address it is listening at: the address the
 * connection reached (any interface HOST opened), HOST itself when it names one, and localhost's
 * names on a loopback connection, each at the port the connection reached.
 */
function isServedHost(req: Request, config: Pick<AppConfig, 'host'>): boolean {
  const match = HOST_HEADER.exec(req.headers.host ?? '');
  const { localAddress, localPort } = req.socket;
  if (!match || !localAddress || !localPort) return false;
  const [, name = '', port] = match;
  const defaultPort = req.protocol === 'https' ? 443 : 80;
  if ((port === undefined ? defaultPort : Number(port)) !== localPort) return false;
  const local = asHostName(localAddress);
  const names = new Set([local, ...(isLoopback(local) ? LOOPBACK_NAMES : [])]);
  const configured = asHostName(config.host);
  if (!WILDCARD_HOSTS.has(configured)) names.add(configured);
  return names.has(name.toLowerCase());
}

/**
 * Without PUBLIC_URL, links back to Margin (sign-in QR codes, the OIDC redirect, payment
 * notifications, exports) are made from the request's Host: a request naming any other host is
 * refused with 421 Misdirected Request before anything can put that host into a link.
 * With PUBLIC_URL, links use it and the Host is not asked.
 */
export function servedHostOnly(config: Pick<AppConfig, 'host' | 'publicUrl'>): RequestHandler {
  return (req, res, next) => {
    if (config.publicUrl || isServedHost(req, config)) return next();
    const t = translator(requestLanguage(req));
    res.status(421).json({ error: 'errors.hostNotServed', message: t('errors.hostNotServed') });
  };
}
