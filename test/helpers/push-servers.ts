import { randomBytes } from 'node:crypto';
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

// Local servers for the push tools, implementing the endpoints protocols/sync.md documents
// (flomo's incoming webhook, WorkFlowy's /api/v1/nodes, the SiYuan kernel API) and recording
// what they received. `failNext` makes the next requests answer 500, as a tool having a bad
// moment would.

export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
  /** Epoch ms, as it arrived. */
  at: number;
}

interface Reply {
  status: number;
  body: unknown;
}

type Handler = (request: Received) => Reply;

export interface ToolServer {
  origin: string;
  /** `host:port`, for FETCH_ALLOW_TARGETS. */
  target: string;
  received: Received[];
  /**
   * The next `count` requests (to `path`, if given) answer `status` (500) instead, after letting
   * `after` (0) of them through.
   */
  failNext(count: number, options?: { status?: number; path?: string; after?: number }): void;
  /**
   * The next `count` requests of `method` to `path` are done as asked, but answered with a body
   * Margin cannot read (HTML, or bytes of `contentType`), keeping the status.
   */
  garbleNext(count: number, options: { method: string; path: string; contentType?: string }): void;
  close(): Promise<void>;
}

/** What a tool answers when its answer is garbled: a proxy's page, cut short. */
const GARBLED_BODY = '<html><body>OK</bo';

async function startToolServer(handle: Handler): Promise<ToolServer> {
  const received: Received[] = [];
  let failures = { left: 0, status: 500, path: undefined as string | undefined, after: 0 };
  let garbling = { left: 0, method: '', path: '', contentType: '' };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = text;
      }
      const request = {
        method: req.method ?? '',
        path: req.url ?? '/',
        headers: req.headers,
        body,
        at: Date.now(),
      };
      received.push(request);
      let failing = false;
      if (failures.left > 0 && (!failures.path || failures.path === request.path)) {
        if (failures.after > 0) failures.after--;
        else {
          failures.left--;
          failing = true;
        }
      }
      const reply = failing
        ? { status: failures.status, body: { error: 'failing on purpose' } }
        : handle(request);
      res.statusCode = reply.status;
      if (garbling.left > 0 && garbling.method === request.method && garbling.path === request.path) {
        garbling.left--;
        res.setHeader('content-type', garbling.contentType);
        res.end(GARBLED_BODY);
        return;
      }
      res.setHeader('content-type', 'application/json; charset=utf-8');
      res.end(JSON.stringify(reply.body));
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    target: `127.0.0.1:${port}`,
    received,
    failNext(count, options = {}) {
      failures = {
        left: count,
        status: options.status ?? 500,
        path: options.path,
        after: options.after ?? 0,
      };
    },
    garbleNext(count, options) {
      garbling = { left: count, contentType: 'text/html; charset=utf-8', ...options };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const token = () => randomBytes(8).toString('hex');

// ---- flomo -----------------------------------------------------------------------------------

export interface FlomoServer extends ToolServer {
  /** A new webhook flomo accepts (one per test user). */
  newWebhook(): string;
  /** flomo forgets the webhook (the user reset it, or PRO lapsed). */
  revoke(webhookUrl: string): void;
  /** The memos accepted through one webhook, in order. */
  memos(webhookUrl: string): { content: string; at: number }[];
}

/** `POST /iwh/<id>/<secret>/ {content}` → `{code: 0}`; an unknown webhook → `{code: -1}`. */
export async function startFlomo(): Promise<FlomoServer> {
  const webhooks = new Map<string, { content: string; at: number }[]>();
  const base = await startToolServer((request) => {
    const memos = request.method === 'POST' ? webhooks.get(request.path) : undefined;
    if (!memos) return { status: 200, body: { code: -1, message: 'unknown webhook' } };
    const content = (request.body as { content?: unknown } | undefined)?.content;
    if (typeof content !== 'string' || !content)
      return { status: 200, body: { code: -1, message: 'no content' } };
    memos.push({ content, at: request.at });
    return { status: 200, body: { code: 0, message: '已记录', memo: { slug: token() } } };
  });
  const pathOf = (url: string) => new URL(url).pathname;
  return {
    ...base,
    newWebhook() {
      const path = `/iwh/${token()}/${token()}/`;
      webhooks.set(path, []);
      return `${base.origin}${path}`;
    },
    revoke(url) {
      webhooks.delete(pathOf(url));
    },
    memos(url) {
      return webhooks.get(pathOf(url)) ?? [];
    },
  };
}

// ---- WorkFlowy -------------------------------------------------------------------------------

export interface WorkflowyNode {
  id: string;
  parentId: string;
  name: string;
  note: string;
}

export interface WorkflowyServer extends ToolServer {
  /** A new API key WorkFlowy accepts (one per test user). */
  newKey(): string;
  revoke(key: string): void;
  /** The nodes made with one key. */
  nodes(key: string): WorkflowyNode[];
  /** The user deletes a node in WorkFlowy. */
  deleteNode(key: string, id: string): void;
  /** The next request answers 429 `{error, retry_after}`. */
  rateLimitNext(retryAfterSeconds: number): void;
}

/** `/api/v1/nodes` with `Authorization: Bearer <key>`: list, create, update, delete. */
export async function startWorkflowy(): Promise<WorkflowyServer> {
  const accounts = new Map<string, Map<string, WorkflowyNode>>();
  let limitNext: number | undefined;
  const base = await startToolServer((request) => {
    if (limitNext !== undefined) {
      const retry_after = limitNext;
      limitNext = undefined;
      return { status: 429, body: { error: 'Rate limit exceeded', retry_after } };
    }
    const key = String(request.headers.authorization ?? '').match(/^Bearer (.+)$/)?.[1] ?? '';
    const nodes = accounts.get(key);
    if (!nodes) return { status: 401, body: { error: 'Invalid API key' } };
    const url = new URL(request.path, 'http://x');
    const body = (request.body ?? {}) as Record<string, unknown>;
    if (url.pathname === '/api/v1/nodes' && request.method === 'GET') {
      const parent = url.searchParams.get('parent_id') ?? 'None';
      return { status: 200, body: { nodes: [...nodes.values()].filter((n) => n.parentId === parent) } };
    }
    if (url.pathname === '/api/v1/nodes' && request.method === 'POST') {
      if (typeof body.name !== 'string') return { status: 400, body: { error: 'name is required' } };
      const node = {
        id: crypto.randomUUID(),
        parentId: String(body.parent_id ?? 'None'),
        name: body.name,
        note: String(body.note ?? ''),
      };
      nodes.set(node.id, node);
      return { status: 200, body: { item_id: node.id } };
    }
    const id = url.pathname.match(/^\/api\/v1\/nodes\/([^/]+)$/)?.[1];
    const node = id ? nodes.get(decodeURIComponent(id)) : undefined;
    if (!id) return { status: 404, body: { error: 'Not found' } };
    if (!node) return { status: 404, body: { error: 'Node not found' } };
    if (request.method === 'POST') {
      if (typeof body.name === 'string') node.name = body.name;
      if (typeof body.note === 'string') node.note = body.note;
      return { status: 200, body: { status: 'ok' } };
    }
    if (request.method === 'DELETE') {
      nodes.delete(node.id);
      return { status: 200, body: { status: 'ok' } };
    }
    return { status: 200, body: node };
  });
  return {
    ...base,
    newKey() {
      const key = token();
      accounts.set(key, new Map());
      return key;
    },
    revoke(key) {
      accounts.delete(key);
    },
    nodes(key) {
      return [...(accounts.get(key)?.values() ?? [])];
    },
    deleteNode(key, id) {
      accounts.get(key)?.delete(id);
    },
    rateLimitNext(seconds) {
      limitNext = seconds;
    },
  };
}

// ---- SiYuan ----------------------------------------------------------------------------------

export interface SiyuanDocument {
  id: string;
  notebook: string;
  hpath: string;
  title: string;
  markdown: string;
  attrs: Record<string, string>;
}

export interface SiyuanServer extends ToolServer {
  token: string;
  notebooks: { id: string; name: string; closed: boolean }[];
  documents: Map<string, SiyuanDocument>;
}

let siyuanIds = 0;
/** SiYuan's id form: a timestamp and seven characters. */
const siyuanId = () => `20260314093000-${String(++siyuanIds).padStart(7, '0')}`;

/**
 * The kernel's `{code, msg, data}` API with `Authorization: Token <t>`: notebooks, documents
 * from Markdown, block update, rename, removal, attributes, and the three SQL queries Margin
 * asks (a document by attribute, a block by id, the newest unmarked document at a path).
 */
export async function startSiyuan(): Promise<SiyuanServer> {
  const state = {
    token: token(),
    notebooks: [] as { id: string; name: string; closed: boolean }[],
    documents: new Map<string, SiyuanDocument>(),
  };
  const ok = (data: unknown): Reply => ({ status: 200, body: { code: 0, msg: '', data } });
  const fail = (msg: string): Reply => ({ status: 200, body: { code: -1, msg, data: null } });
  const base = await startToolServer((request) => {
    if (request.headers.authorization !== `Token ${state.token}`) {
      return { status: 401, body: { code: -1, msg: 'Auth failed [session]', data: null } };
    }
    const p = (request.body ?? {}) as Record<string, unknown>;
    const doc = typeof p.id === 'string' ? state.documents.get(p.id) : undefined;
    switch (request.path) {
      case '/api/notebook/lsNotebooks':
        return ok({ notebooks: state.notebooks });
      case '/api/notebook/createNotebook': {
        const notebook = { id: siyuanId(), name: String(p.name), closed: false };
        state.notebooks.push(notebook);
        return ok({ notebook });
      }
      case '/api/notebook/openNotebook': {
        const notebook = state.notebooks.find((n) => n.id === p.notebook);
        if (!notebook) return fail('notebook not found');
        notebook.closed = false;
        return ok(null);
      }
      case '/api/filetree/createDocWithMd': {
        if (!state.notebooks.some((n) => n.id === p.notebook && !n.closed)) return fail('notebook not found');
        const hpath = String(p.path);
        if (!hpath.startsWith('/')) return fail('path must start with /');
        const id = siyuanId();
        const title = hpath.split('/').at(-1) ?? '';
        state.documents.set(id, {
          id,
          notebook: String(p.notebook),
          hpath,
          title,
          markdown: String(p.markdown),
          attrs: {},
        });
        return ok(id);
      }
      case '/api/block/updateBlock':
        if (!doc) return fail('block not found');
        if (p.dataType !== 'markdown') return fail('unsupported data type');
        doc.markdown = String(p.data);
        return ok([{ doOperations: [{ action: 'update', id: doc.id }] }]);
      case '/api/filetree/renameDocByID':
        if (!doc) return fail('document not found');
        doc.title = String(p.title);
        doc.hpath = `${doc.hpath.split('/').slice(0, -1).join('/')}/${doc.title}`;
        return ok(null);
      case '/api/filetree/removeDocByID':
        if (!doc) return fail('document not found');
        state.documents.delete(doc.id);
        return ok(null);
      case '/api/attr/setBlockAttrs': {
        if (!doc) return fail('block not found');
        const attrs = p.attrs as Record<string, string>;
        if (Object.keys(attrs).some((name) => !name.startsWith('custom-')))
          return fail('invalid attribute name');
        Object.assign(doc.attrs, attrs);
        return ok(null);
      }
      case '/api/query/sql':
        return query(String(p.stmt));
      default:
        return { status: 404, body: { code: -1, msg: 'not found', data: null } };
    }
  });
  function query(stmt: string): Reply {
    const byAttribute = stmt.match(
      /^SELECT block_id FROM attributes WHERE name = '((?:[^']|'')*)' AND value = '((?:[^']|'')*)' LIMIT 1$/,
    );
    if (byAttribute) {
      const [name, value] = [byAttribute[1], byAttribute[2]].map((s) => s?.replace(/''/g, "'"));
      const found = [...state.documents.values()].find((d) => d.attrs[name ?? ''] === value);
      return ok(found ? [{ block_id: found.id }] : []);
    }
    const byId = stmt.match(/^SELECT id FROM blocks WHERE id = '((?:[^']|'')*)' LIMIT 1$/);
    if (byId) return ok(state.documents.has(byId[1] ?? '') ? [{ id: byId[1] }] : []);
    const unmarked = stmt.match(
      /^SELECT id FROM blocks WHERE type = 'd' AND box = '((?:[^']|'')*)' AND hpath = '((?:[^']|'')*)' AND id NOT IN \(SELECT block_id FROM attributes WHERE name = '((?:[^']|'')*)'\) ORDER BY created DESC LIMIT 1$/,
    );
    if (unmarked) {
      const [box, hpath, name] = unmarked.slice(1).map((s) => s?.replace(/''/g, "'"));
      // Ids begin with the time they were made, so the last in id order is the newest.
      const found = [...state.documents.values()]
        .filter((d) => d.notebook === box && d.hpath === hpath && d.attrs[name ?? ''] === undefined)
        .at(-1);
      return ok(found ? [{ id: found.id }] : []);
    }
    return fail(`unsupported statement: ${stmt}`);
  }
  return {
    ...base,
    notebooks: state.notebooks,
    documents: state.documents,
    get token() {
      return state.token;
    },
    /** The user changes the kernel's token in its settings. */
    set token(value) {
      state.token = value;
    },
  };
}
