import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  checkTarget,
  type FetchRefusalReason,
  FetchRefusedError,
  type GuardedFetchOptions,
  guardedFetch,
  type HostLookup,
  IMAGE_CONTENT_TYPES,
  PAGE_CONTENT_TYPES,
} from '../../server/net/guarded-fetch.ts';
import { classifyAddress, parseLooseIPv4 } from '../../server/net/ip-policy.ts';

// Only loopback servers on ephemeral ports; names resolve through this table, never real DNS.
const FAKE_DNS: Record<string, string[]> = {
  localhost: ['127.0.0.1', '::1'],
  'evil.test': ['10.0.0.1'],
  'metadata.test': ['169.254.169.254'],
  'mixed.test': ['8.8.8.8', '192.168.1.10'],
  'mixed6.test': ['2606:4700:4700::1111', 'fd00::1'],
  'public.test': ['8.8.8.8', '2606:4700:4700::1111'],
  'site.test': ['127.0.0.1'],
  'garbage.test': ['not-an-ip'],
};

const fakeLookup: HostLookup = async (hostname) => {
  const addresses = FAKE_DNS[hostname];
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return addresses.map((address) => ({ address }));
};

// The clipper's own time limits: far beyond what a loopback request needs on a loaded machine.
// Tests of the limits set their own.
const baseOptions: GuardedFetchOptions = {
  allowedContentTypes: PAGE_CONTENT_TYPES,
  userAgent: 'MarginTest/1.0',
  maxBytes: 64 * 1024,
  timeoutMs: 20_000,
  idleTimeoutMs: 10_000,
  maxRedirects: 3,
  lookup: fakeLookup,
};

/** Longer than any test may run: a fetch that ends anyway was ended by something else. */
const OUT_OF_REACH_MS = 10 * 60_000;

async function refusal(promise: Promise<unknown>): Promise<FetchRefusedError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof FetchRefusedError) return error;
    throw error;
  }
  throw new Error('expected the fetch to be refused');
}

interface LocalServer {
  origin: string;
  port: number;
  target: string;
  requests: http.IncomingMessage[];
  close: () => Promise<void>;
}

async function listen(server: net.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function startServer(handler: http.RequestListener): Promise<LocalServer> {
  const requests: http.IncomingMessage[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req);
    handler(req, res);
  });
  const port = await listen(server);
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    target: `127.0.0.1:${port}`,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A raw TCP server for responses node's http server will not produce (lying lengths, drips). */
async function startRawServer(respond: (socket: net.Socket, firstBytes: Buffer) => void) {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.once('data', (firstBytes: Buffer) => respond(socket, firstBytes));
  });
  const port = await listen(server);
  return {
    origin: `http://127.0.0.1:${port}`,
    target: `127.0.0.1:${port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('address policy', () => {
  test.each([
    ['127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.31.0.1', 'private'],
    ['192.168.0.1', 'private'],
    ['100.64.0.1', 'cgnat'],
    ['169.254.169.254', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['2002:c0a8:0101::1', 'private'],
    ['fe80::1%eth0', 'link-local'],
    ['8.8.8.8', 'public'],
    ['172.32.0.1', 'public'],
    ['100.128.0.1', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['::ffff:8.8.8.8', 'public'],
    ['64:ff9b::808:808', 'public'],
  ])('%s is %s', (address, category) => {
    expect(classifyAddress(address)).toBe(category);
  });

  test.each([
    ['2130706433', '127.0.0.1'],
    ['0x7f000001', '127.0.0.1'],
    ['017700000001', '127.0.0.1'],
    ['127.1', '127.0.0.1'],
    ['0177.0.0.01', '127.0.0.1'],
    ['0x7f.1', '127.0.0.1'],
    ['10.1', '10.0.0.1'],
    ['4294967296', undefined],
    ['256.1.1.1', undefined],
    ['example.com', undefined],
    ['08.1.1.1', undefined],
  ])('loose IPv4 %s reads as %s', (text, expected) => {
    expect(parseLooseIPv4(text)).toBe(expected);
  });
});

describe('hostile targets are refused before connecting', () => {
  const cases: [string, FetchRefusalReason][] = [
    // loopback, private, link-local, CGNAT, metadata (IPv4)
    ['http://127.0.0.1/', 'blocked_address'],
    ['http://127.255.255.254:8080/', 'blocked_address'],
    ['http://localhost/', 'blocked_address'],
    ['http://10.0.0.1/', 'blocked_address'],
    ['http://172.16.0.1/', 'blocked_address'],
    ['http://172.31.255.255/', 'blocked_address'],
    ['http://192.168.1.1/', 'blocked_address'],
    ['http://169.254.1.1/', 'blocked_address'],
    ['http://169.254.169.254/latest/meta-data/', 'blocked_address'],
    ['http://100.64.0.1/', 'blocked_address'],
    ['http://100.127.255.254/', 'blocked_address'],
    // IPv6: loopback, unspecified, unique-local, link-local, metadata
    ['http://[::1]/', 'blocked_address'],
    ['http://[::]/', 'blocked_address'],
    ['http://[fc00::1]/', 'blocked_address'],
    ['http://[fd12:3456:789a::1]/', 'blocked_address'],
    ['http://[fe80::1]/', 'blocked_address'],
    ['http://[fd00:ec2::254]/latest/meta-data/', 'blocked_address'],
    // IPv4-mapped IPv6, dotted and hex; NAT64 and 6to4 embedding private IPv4
    ['http://[::ffff:127.0.0.1]/', 'blocked_address'],
    ['http://[::ffff:7f00:1]/', 'blocked_address'],
    ['http://[0:0:0:0:0:ffff:10.0.0.1]/', 'blocked_address'],
    ['http://[::ffff:a9fe:a9fe]/', 'blocked_address'],
    ['http://[64:ff9b::10.0.0.1]/', 'blocked_address'],
    ['http://[64:ff9b::a9fe:a9fe]/', 'blocked_address'],
    ['http://[2002:7f00:1::1]/', 'blocked_address'],
    ['http://[::127.0.0.1]/', 'blocked_address'],
    // odd IPv4 spellings
    ['http://2130706433/', 'blocked_address'],
    ['http://0x7f000001/', 'blocked_address'],
    ['http://017700000001/', 'blocked_address'],
    ['http://127.1/', 'blocked_address'],
    ['http://0x7f.0.0.1/', 'blocked_address'],
    ['http://0177.0.0.1/', 'blocked_address'],
    ['http://3232235777/', 'blocked_address'],
    ['http://0xa9fea9fe/', 'blocked_address'],
    ['http://127.0.0.1./', 'blocked_address'],
    // this network, multicast, broadcast, reserved, documentation
    ['http://0.0.0.0/', 'blocked_address'],
    ['http://0/', 'blocked_address'],
    ['http://224.0.0.1/', 'blocked_address'],
    ['http://255.255.255.255/', 'blocked_address'],
    ['http://240.0.0.1/', 'blocked_address'],
    ['http://192.0.2.1/', 'blocked_address'],
    ['http://198.18.0.1/', 'blocked_address'],
    ['http://[2001:db8::1]/', 'blocked_address'],
    ['http://[ff02::1]/', 'blocked_address'],
    ['http://[2001::1]/', 'blocked_address'],
    // names resolving to blocked addresses
    ['http://evil.test/', 'blocked_address'],
    ['http://metadata.test/', 'blocked_address'],
    ['http://mixed.test/', 'blocked_address'],
    ['http://mixed6.test/', 'blocked_address'],
    ['https://evil.test/', 'blocked_address'],
    // userinfo tricks: the real host is what counts
    ['http://user:pass@127.0.0.1/', 'blocked_address'],
    ['http://public.test@10.0.0.1/', 'blocked_address'],
    ['http://public.test:80@169.254.169.254/', 'blocked_address'],
    ['http://public.test&@192.168.0.1#@public.test/', 'blocked_address'],
    // schemes
    ['file:///etc/passwd', 'scheme'],
    ['ftp://public.test/file', 'scheme'],
    ['javascript:alert(1)', 'scheme'],
    ['data:text/html,<script>alert(1)</script>', 'scheme'],
    ['gopher://127.0.0.1:70/_GET', 'scheme'],
    ['ws://public.test/', 'scheme'],
    // ports for other protocols, unresolvable names, non-URLs
    ['http://public.test:25/', 'blocked_port'],
    ['http://no-such-host.test/', 'dns'],
    ['http://garbage.test/', 'dns'],
    ['not a url', 'invalid_url'],
    ['http://', 'invalid_url'],
    ['http://1.2.3.999/', 'invalid_url'],
  ];

  test.each(cases)('%s → %s', async (url, reason) => {
    const error = await refusal(guardedFetch(url, baseOptions));
    expect(error.reason).toBe(reason);
    expect(error.message).not.toMatch(/\d+\.\d+\.\d+\.\d+|ENOTFOUND|getaddrinfo/);
  });

  test('checkTarget accepts a name with only public addresses, without connecting', async () => {
    const target = await checkTarget('https://public.test/path?q=1', baseOptions);
    expect(target.hostname).toBe('public.test');
    expect(target.port).toBe(443);
    expect(target.addresses.map((a) => a.address)).toEqual(['8.8.8.8', '2606:4700:4700::1111']);
  });

  test('allowedTargets never opens metadata or link-local addresses', async () => {
    const options = {
      ...baseOptions,
      allowedTargets: ['169.254.169.254:80', 'metadata.test:80', '[fe80::1]:80'],
    };
    for (const url of ['http://169.254.169.254/', 'http://metadata.test/', 'http://[fe80::1]/']) {
      expect((await refusal(guardedFetch(url, options))).reason).toBe('blocked_address');
    }
  });

  test('a malformed allowedTargets entry is a configuration error', async () => {
    for (const entry of ['127.0.0.1', 'http://127.0.0.1:80', '127.0.0.1:99999', 'a@127.0.0.1:80']) {
      const options = { ...baseOptions, allowedTargets: [entry] };
      await expect(guardedFetch('http://public.test/', options)).rejects.toThrow(TypeError);
    }
  });
});

describe('against local servers', () => {
  let site: LocalServer;
  let other: LocalServer;
  let allowed: GuardedFetchOptions;
  const bomb = zlib.gzipSync(Buffer.alloc(20 * 1024 * 1024));
  const brotliBomb = zlib.brotliCompressSync(Buffer.alloc(20 * 1024 * 1024));

  beforeAll(async () => {
    other = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('from other');
    });
    site = await startServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const path = url.pathname;
      const redirect = (location: string, status = 302) => res.writeHead(status, { location }).end();
      if (path === '/hello')
        return res.writeHead(200, { 'content-type': 'text/html; charset=UTF-8' }).end('<p>hello</p>');
      if (path === '/echo-headers') {
        return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(req.headers));
      }
      if (path === '/to-other') return redirect(`${other.origin}/`, 301);
      if (path === '/relative') return redirect('hello?x=1', 303);
      if (path === '/to-private') return redirect('http://10.0.0.1/admin');
      if (path === '/to-metadata') return redirect('http://169.254.169.254/latest/meta-data/', 307);
      if (path === '/to-mapped') return redirect('http://[::ffff:7f00:1]/');
      if (path === '/to-evil-name') return redirect('http://evil.test/');
      if (path === '/to-unlisted-port') return redirect(`http://127.0.0.1:${url.searchParams.get('port')}/`);
      if (path === '/to-file') return redirect('file:///etc/passwd', 308);
      if (path === '/to-broken') return redirect('http://[oops/');
      if (path === '/loop-a') return redirect('/loop-b');
      if (path === '/loop-b') return redirect('/loop-a');
      if (path === '/self') return redirect('/self#again');
      if (path.startsWith('/chain/')) {
        const left = Number(path.slice('/chain/'.length));
        if (left === 0) return res.writeHead(200, { 'content-type': 'text/plain' }).end('end of chain');
        return redirect(`/chain/${left - 1}`);
      }
      if (path === '/big-declared') {
        return res
          .writeHead(200, { 'content-type': 'text/html', 'content-length': 200_000 })
          .end('x'.repeat(200_000));
      }
      if (path === '/big-chunked') {
        res.writeHead(200, { 'content-type': 'text/html' });
        const chunk = 'y'.repeat(16 * 1024);
        const pump = () => {
          while (res.write(chunk)) {}
          res.once('drain', pump);
        };
        res.on('close', () => res.removeAllListeners('drain'));
        return pump();
      }
      if (path === '/gzip-bomb') {
        return res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }).end(bomb);
      }
      if (path === '/bomb-held-open') {
        // The bomb, and then the body never ends.
        res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
        return res.write(bomb);
      }
      if (path === '/br-bomb') {
        return res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'br' }).end(brotliBomb);
      }
      if (path === '/double-gzip-bomb') {
        const layered = zlib.gzipSync(bomb);
        return res
          .writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip, gzip' })
          .end(layered);
      }
      const text = Buffer.from('<p>compressed hello</p>');
      if (path === '/gzip') {
        return res
          .writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' })
          .end(zlib.gzipSync(text));
      }
      if (path === '/br') {
        return res
          .writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'br' })
          .end(zlib.brotliCompressSync(text));
      }
      if (path === '/deflate') {
        return res
          .writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'deflate' })
          .end(zlib.deflateSync(text));
      }
      if (path === '/deflate-raw') {
        return res
          .writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'deflate' })
          .end(zlib.deflateRawSync(text));
      }
      if (path === '/compress') {
        return res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'compress' }).end('??');
      }
      if (path === '/pdf') return res.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.4');
      if (path === '/svg') return res.writeHead(200, { 'content-type': 'image/svg+xml' }).end('<svg/>');
      if (path === '/png')
        return res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from([0x89, 0x50]));
      if (path === '/no-type') {
        res.removeHeader('content-type');
        return res.writeHead(200).end('untyped');
      }
      if (path === '/missing') return res.writeHead(404, { 'content-type': 'text/html' }).end('not here');
      if (path === '/slow-drip') {
        res.writeHead(200, { 'content-type': 'text/html' });
        const timer = setInterval(() => res.write('.'), 400);
        return res.on('close', () => clearInterval(timer));
      }
      if (path === '/fast-drip') {
        res.writeHead(200, { 'content-type': 'text/html' });
        const timer = setInterval(() => res.write('.'), 50);
        return res.on('close', () => clearInterval(timer));
      }
      if (path === '/silent') return; // never answers
      res.writeHead(500).end();
    });
    allowed = { ...baseOptions, allowedTargets: [site.target, other.target] };
  });

  afterAll(async () => {
    await site.close();
    await other.close();
  });

  test('an allowed local server returns its body', async () => {
    const response = await guardedFetch(`${site.origin}/hello`, allowed);
    expect(response.status).toBe(200);
    expect(response.url).toBe(`${site.origin}/hello`);
    expect(response.contentType).toBe('text/html');
    expect(response.charset).toBe('utf-8');
    expect(response.body.toString()).toBe('<p>hello</p>');
  });

  test('the same local server is refused when it is not listed, or listed with another port', async () => {
    expect((await refusal(guardedFetch(`${site.origin}/hello`, baseOptions))).reason).toBe('blocked_address');
    const wrongPort = { ...baseOptions, allowedTargets: [other.target] };
    expect((await refusal(guardedFetch(`${site.origin}/hello`, wrongPort))).reason).toBe('blocked_address');
    const viaLocalhost = await refusal(guardedFetch(`http://localhost:${site.port}/hello`, allowed));
    expect(viaLocalhost.reason).toBe('blocked_address'); // ::1 is not listed
  });

  test('a name is resolved once and the connection is pinned; Host keeps the name', async () => {
    let lookups = 0;
    const rebinding: HostLookup = async () => {
      lookups += 1;
      return lookups === 1 ? [{ address: '127.0.0.1' }] : [{ address: '169.254.169.254' }];
    };
    const response = await guardedFetch(`http://rebind.test:${site.port}/echo-headers`, {
      ...allowed,
      allowedContentTypes: ['application/json'],
      lookup: rebinding,
    });
    expect(lookups).toBe(1);
    const headers = JSON.parse(response.body.toString()) as Record<string, string>;
    expect(headers.host).toBe(`rebind.test:${site.port}`);
    expect(headers['user-agent']).toBe('MarginTest/1.0');
  });

  test('a listed host name opens that name only', async () => {
    const byName = { ...baseOptions, allowedTargets: [`site.test:${site.port}`] };
    const response = await guardedFetch(`http://site.test:${site.port}/hello`, byName);
    expect(response.body.toString()).toBe('<p>hello</p>');
    expect((await refusal(guardedFetch(`${site.origin}/hello`, byName))).reason).toBe('blocked_address');
  });

  test('credentials in the URL are never sent', async () => {
    const response = await guardedFetch(`http://user:secret@127.0.0.1:${site.port}/echo-headers`, {
      ...allowed,
      allowedContentTypes: ['application/json'],
    });
    const headers = JSON.parse(response.body.toString()) as Record<string, string>;
    expect(headers.authorization).toBeUndefined();
  });

  test('a redirect between allowed targets is followed', async () => {
    const response = await guardedFetch(`${site.origin}/to-other`, allowed);
    expect(response.url).toBe(`${other.origin}/`);
    expect(response.body.toString()).toBe('from other');
  });

  test('a relative redirect is resolved against the current URL', async () => {
    const response = await guardedFetch(`${site.origin}/relative`, allowed);
    expect(response.url).toBe(`${site.origin}/hello?x=1`);
  });

  test.each([
    ['/to-private', 'blocked_address'],
    ['/to-metadata', 'blocked_address'],
    ['/to-mapped', 'blocked_address'],
    ['/to-evil-name', 'blocked_address'],
    ['/to-file', 'scheme'],
    ['/to-broken', 'invalid_url'],
    ['/loop-a', 'redirect_loop'],
    ['/self', 'redirect_loop'],
    ['/chain/4', 'too_many_redirects'],
  ] as const)('redirect %s is refused: %s', async (path, reason) => {
    expect((await refusal(guardedFetch(`${site.origin}${path}`, allowed))).reason).toBe(reason);
  });

  test('a redirect to an unlisted port on the same loopback host is refused', async () => {
    const url = `${site.origin}/to-unlisted-port?port=${other.port}`;
    const onlySite = { ...baseOptions, allowedTargets: [site.target] };
    const requestsBefore = other.requests.length;
    expect((await refusal(guardedFetch(url, onlySite))).reason).toBe('blocked_address');
    expect(other.requests).toHaveLength(requestsBefore);
  });

  test('exactly maxRedirects redirects are followed', async () => {
    const response = await guardedFetch(`${site.origin}/chain/3`, allowed);
    expect(response.body.toString()).toBe('end of chain');
  });

  test.each([
    ['/big-declared', 'too_large'],
    ['/big-chunked', 'too_large'],
    ['/gzip-bomb', 'too_large'],
    ['/br-bomb', 'too_large'],
    ['/double-gzip-bomb', 'too_large'],
    ['/compress', 'encoding'],
    ['/pdf', 'content_type'],
    ['/no-type', 'content_type'],
    ['/svg', 'content_type'],
  ] as const)('%s is refused: %s', async (path, reason) => {
    expect((await refusal(guardedFetch(`${site.origin}${path}`, allowed))).reason).toBe(reason);
  });

  test('a bomb is cut off at the limit as it inflates, not decompressed in full', async () => {
    // Its body never ends, it is far smaller than the limit on the wire and the timeouts are out
    // of reach: only the limit on what the decoder puts out can end this fetch.
    const options = { ...allowed, timeoutMs: OUT_OF_REACH_MS, idleTimeoutMs: OUT_OF_REACH_MS };
    expect(options.maxBytes).toBeGreaterThan(bomb.length);
    const error = await refusal(guardedFetch(`${site.origin}/bomb-held-open`, options));
    expect(error.reason).toBe('too_large');
  });

  test.each(['/gzip', '/br', '/deflate', '/deflate-raw'])('%s is decoded', async (path) => {
    const response = await guardedFetch(`${site.origin}${path}`, allowed);
    expect(response.body.toString()).toBe('<p>compressed hello</p>');
  });

  test('the content-type list is a parameter', async () => {
    const images = { ...allowed, allowedContentTypes: IMAGE_CONTENT_TYPES };
    expect((await guardedFetch(`${site.origin}/png`, images)).contentType).toBe('image/png');
    expect((await refusal(guardedFetch(`${site.origin}/hello`, images))).reason).toBe('content_type');
    const anyImage = { ...allowed, allowedContentTypes: ['image/*'] };
    expect((await guardedFetch(`${site.origin}/svg`, anyImage)).contentType).toBe('image/svg+xml');
  });

  test('an error status is refused with the status', async () => {
    const error = await refusal(guardedFetch(`${site.origin}/missing`, allowed));
    expect(error.reason).toBe('http_status');
    expect(error.status).toBe(404);
  });

  // In the timeout tests the other limit is out of reach, so the one under test is what ends the
  // fetch; were it broken, the fetch would hang and the test time out.
  test('a slow-drip body hits the idle timeout', async () => {
    const options = { ...allowed, idleTimeoutMs: 150, timeoutMs: OUT_OF_REACH_MS };
    const error = await refusal(guardedFetch(`${site.origin}/slow-drip`, options));
    expect(error.reason).toBe('timeout');
  });

  test('a server that never answers hits the idle timeout', async () => {
    const options = { ...allowed, idleTimeoutMs: 150, timeoutMs: OUT_OF_REACH_MS };
    const error = await refusal(guardedFetch(`${site.origin}/silent`, options));
    expect(error.reason).toBe('timeout');
  });

  test('a steady drip that never ends hits the total timeout', async () => {
    const started = performance.now();
    const options = { ...allowed, idleTimeoutMs: OUT_OF_REACH_MS, timeoutMs: 400, maxBytes: 1_000_000 };
    const error = await refusal(guardedFetch(`${site.origin}/fast-drip`, options));
    expect(error.reason).toBe('timeout');
    // Not cut short: the drip goes on for as long as the limit allows.
    expect(performance.now() - started).toBeGreaterThanOrEqual(390);
  });
});

describe('responses that lie about their length', () => {
  test('a body without Content-Length, ended by closing, is bounded', async () => {
    const server = await startRawServer((socket) => {
      socket.write('HTTP/1.1 200 OK\r\ncontent-type: text/html\r\nconnection: close\r\n\r\n');
      const chunk = Buffer.alloc(16 * 1024, 0x61);
      const pump = () => {
        while (!socket.destroyed && socket.write(chunk)) {}
        if (!socket.destroyed) socket.once('drain', pump);
      };
      pump();
    });
    try {
      const options = { ...baseOptions, allowedTargets: [server.target] };
      expect((await refusal(guardedFetch(`${server.origin}/`, options))).reason).toBe('too_large');
    } finally {
      await server.close();
    }
  });

  test('a small Content-Length followed by much more data yields at most the declared bytes', async () => {
    const server = await startRawServer((socket) => {
      socket.write('HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ncontent-length: 10\r\n\r\n');
      socket.write(Buffer.alloc(1024 * 1024, 0x62));
    });
    try {
      const options = { ...baseOptions, allowedTargets: [server.target] };
      const response = await guardedFetch(`${server.origin}/`, options);
      expect(response.body.length).toBe(10);
    } finally {
      await server.close();
    }
  });

  test('a gzip body whose Content-Length is small but which inflates past the limit is refused', async () => {
    const bomb = zlib.gzipSync(Buffer.alloc(8 * 1024 * 1024));
    const server = await startRawServer((socket) => {
      socket.write(
        `HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ncontent-encoding: gzip\r\ncontent-length: ${bomb.length}\r\n\r\n`,
      );
      socket.write(bomb);
    });
    try {
      const options = { ...baseOptions, allowedTargets: [server.target] };
      expect((await refusal(guardedFetch(`${server.origin}/`, options))).reason).toBe('too_large');
    } finally {
      await server.close();
    }
  });
});

describe('https', () => {
  test('TLS goes to the pinned address with the original name as SNI', async () => {
    let clientHello: Buffer = Buffer.alloc(0);
    const server = await startRawServer((socket, firstBytes) => {
      clientHello = firstBytes;
      socket.end(Buffer.from([0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x28])); // fatal handshake_failure alert
    });
    try {
      const port = server.target.split(':')[1];
      const options = { ...baseOptions, allowedTargets: [`site.test:${port}`] };
      expect((await refusal(guardedFetch(`https://site.test:${port}/`, options))).reason).toBe('connection');
      expect(clientHello[0]).toBe(0x16); // a TLS handshake record
      expect(clientHello.includes(Buffer.from('site.test'))).toBe(true);
    } finally {
      await server.close();
    }
  });
});

describe('slow name resolution', () => {
  test('a lookup that never answers is cut off by the total timeout', async () => {
    // The lookup never answers: only the total timeout can end this fetch.
    const hanging: HostLookup = () => new Promise(() => {});
    const error = await refusal(
      guardedFetch('http://slow.test/', { ...baseOptions, lookup: hanging, timeoutMs: 200 }),
    );
    expect(error.reason).toBe('timeout');
  });
});
