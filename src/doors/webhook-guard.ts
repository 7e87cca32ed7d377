/**
 * A cap in front of Probot's webhook endpoint. `@octokit/webhooks`' Node middleware (what Probot 14
 * mounts at /api/github/webhooks) buffers the whole request body, with no limit, before it checks the
 * signature: anyone who can reach the URL could make the App hold a 1 GB body (measured: a 200 MB
 * unsigned POST grew the App's RSS by ~600 MB before the 400). GitHub never sends more than 25 MB.
 *
 * The guard answers first: a Content-Length over the cap is refused (413) at once, before any of the body
 * is read; any other body is read up to the cap and cut off (413) the moment it passes it; one still
 * arriving after MAX_WEBHOOK_BODY_MS is cut off (408). These refusals close the connection (after
 * dropping, for at most WEBHOOK_LINGER_MS, what the client is still sending). A body that is not a JSON object
 * (`null`, `42`, `[]`, `"x"`, empty) is refused (400) here: `@octokit/webhooks` would answer those with a
 * 500 (a TypeError in its receiver). What is left goes to the middleware as `rawBody`, which it reads
 * instead of the stream, and which it still verifies and parses itself.
 *
 * Where it sits: Probot's own server (`probot run`) puts the webhook middleware before every handler
 * added through `addHandler`, so a handler cannot come first. Both ways the App runs, `probot run` and
 * `createNodeMiddleware(app, { probot })`, build that middleware by calling `getNodeMiddleware()` on the
 * Probot instance the app function receives, after loading the app: `capWebhookBodies` wraps that
 * method on the instance, so the middleware they mount is the guarded one (checked in Probot 14.3's
 * server.js and create-node-middleware.js; test/app/hostile-webhooks.e2e.test.ts and
 * probot-run.e2e.test.ts prove it through both).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Probot } from 'probot';
import { MAX_WEBHOOK_BODY_BYTES, MAX_WEBHOOK_BODY_MS, WEBHOOK_LINGER_MS } from '../limits.js';

/** What `@octokit/webhooks`' createNodeMiddleware returns (true: answered; false: not its route). */
export type WebhookMiddleware = (req: IncomingMessage, res: ServerResponse, next?: () => void) => Promise<boolean>;

export interface GuardOptions {
  /** The webhook path the wrapped middleware serves. */
  path: string;
  maxBytes?: number;
  timeoutMs?: number;
  lingerMs?: number;
  log: { warn(fields: Record<string, unknown>, msg: string): void };
}

/** As `@octokit/webhooks` matches its path: trailing slashes dropped, query ignored. */
function trimSlashes(p: string): string {
  const t = p.replace(/\/+$/, '');
  return t === '' ? '/' : t;
}

function pathnameOf(url: string | undefined): string | undefined {
  try {
    return new URL(trimSlashes(url ?? '/'), 'http://localhost').pathname;
  } catch {
    return undefined;
  }
}

const JSON_TYPE = /^\s*application\/json\s*(?:;|$)/u;
const WEBHOOK_HEADERS = ['x-github-event', 'x-hub-signature-256', 'x-github-delivery'] as const;

/** The first byte after a UTF-8 BOM and JSON whitespace is `{`: the body can only parse to an object. */
export function looksLikeJsonObject(body: Uint8Array): boolean {
  let i = body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf ? 3 : 0;
  while (i < body.length && (body[i] === 0x20 || body[i] === 0x09 || body[i] === 0x0a || body[i] === 0x0d)) i++;
  return body[i] === 0x7b;
}

type Read = { kind: 'ok'; body: Buffer } | { kind: 'too-large'; bytes: number } | { kind: 'timeout'; bytes: number } | { kind: 'aborted' };

/** Reads the body, holding at most `max` bytes; stops reading (and lets go of what it held) past the cap or the deadline. */
function readCapped(req: IncomingMessage, max: number, timeoutMs: number): Promise<Read> {
  return new Promise((resolve) => {
    let chunks: Buffer[] = [];
    let bytes = 0;
    const done = (r: Read): void => {
      clearTimeout(timer);
      req.off('data', onData).off('end', onEnd).off('close', onClose);
      if (r.kind !== 'ok') {
        chunks = [];
        req.pause(); // no more reading: the connection is closed after the answer
      }
      resolve(r);
    };
    const onData = (c: Buffer): void => {
      bytes += c.length;
      if (bytes > max) return done({ kind: 'too-large', bytes });
      chunks.push(c);
    };
    const onEnd = (): void => done({ kind: 'ok', body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, bytes) });
    const onClose = (): void => done({ kind: 'aborted' });
    const timer = setTimeout(() => done({ kind: 'timeout', bytes }), timeoutMs);
    req.on('data', onData).on('end', onEnd).on('close', onClose);
  });
}

function refuse(res: ServerResponse, status: number, error: string): true {
  const body = JSON.stringify({ error });
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
  res.end(body);
  return true;
}

/**
 * Refuses a body that is not read (whole): the answer goes out at once with `Connection: close`, and what
 * the client still sends is read and dropped (never kept) until it stops or `lingerMs` pass; then the
 * connection is closed. Closing at once, on unread data, makes TCP send a reset, which can reach the
 * client before the answer: it would see "connection reset" instead of the 413.
 */
function refuseAndClose(req: IncomingMessage, res: ServerResponse, status: number, error: string, lingerMs: number): true {
  const body = JSON.stringify({ error });
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), connection: 'close' });
  res.write(body); // the whole answer (its Content-Length): ending the response is what closes the connection
  const close = (): void => {
    clearTimeout(timer);
    if (!res.writableEnded) res.end();
  };
  const timer = setTimeout(close, lingerMs);
  req.once('end', close).once('close', close);
  req.resume();
  return true;
}

/** Wraps the webhook middleware with the body cap and the JSON-object check (see the file's comment). */
export function guardWebhookBodies(inner: WebhookMiddleware, opts: GuardOptions): WebhookMiddleware {
  const path = trimSlashes(opts.path);
  const max = opts.maxBytes ?? MAX_WEBHOOK_BODY_BYTES;
  const timeoutMs = opts.timeoutMs ?? MAX_WEBHOOK_BODY_MS;
  const lingerMs = opts.lingerMs ?? WEBHOOK_LINGER_MS;
  return async (req, res, next) => {
    if (req.method !== 'POST' || pathnameOf(req.url) !== path) return inner(req, res, next);
    // Read already (a framework's body parser): its own limit applied; the middleware reads `rawBody` or `body`.
    if (req.readableEnded || 'rawBody' in req || typeof (req as { body?: unknown }).body === 'string') return inner(req, res, next);
    // An aborted or reset request emits 'error' on the stream: never let that reach the process.
    req.on('error', () => {});
    const header = (name: string): string => String(req.headers[name] ?? '').slice(0, 100);
    const said = (status: number, why: string): void =>
      opts.log.warn({ status, remote: req.socket.remoteAddress, event: header('x-github-event'), delivery: header('x-github-delivery') }, `redline: webhook refused (${status}): ${why}`);

    const declared = Number(req.headers['content-length']);
    if (declared > max) {
      said(413, `Content-Length ${declared} is over the ${max}-byte cap (GitHub sends at most 25 MB); not read`);
      return refuseAndClose(req, res, 413, `payload too large: at most ${max} bytes`, lingerMs);
    }
    const read = await readCapped(req, max, timeoutMs);
    switch (read.kind) {
      case 'too-large':
        said(413, `body passed the ${max}-byte cap (GitHub sends at most 25 MB); cut off`);
        return refuseAndClose(req, res, 413, `payload too large: at most ${max} bytes`, lingerMs);
      case 'timeout':
        said(408, `body still arriving after ${timeoutMs} ms (${read.bytes} bytes); cut off`);
        return refuseAndClose(req, res, 408, 'payload took too long to arrive', lingerMs);
      case 'aborted':
        res.destroy();
        return true;
    }
    Object.assign(req, { body: {}, rawBody: read.body });
    // Only where @octokit/webhooks would go on to verify and parse: a wrong content type or missing headers get its 415/400.
    const complete = JSON_TYPE.test(String(req.headers['content-type'] ?? '')) && WEBHOOK_HEADERS.every((h) => req.headers[h] !== undefined);
    if (complete && !looksLikeJsonObject(read.body)) {
      said(400, `the body (${read.body.length} bytes) is not a JSON object`);
      return refuse(res, 400, 'the payload must be a JSON object');
    }
    return inner(req, res, next);
  };
}

/**
 * Puts the guard in front of the webhook middleware Probot builds for this app: wraps `getNodeMiddleware`
 * on the instance, which `probot run`'s server and `createNodeMiddleware` both call after loading the app.
 */
export function capWebhookBodies(app: Probot, opts: Omit<GuardOptions, 'path' | 'log'> = {}): void {
  const original = app.getNodeMiddleware.bind(app);
  app.getNodeMiddleware = async (o = {}) => {
    const inner = (await original(o)) as WebhookMiddleware;
    const guarded = guardWebhookBodies(inner, { ...opts, path: o.path ?? app.webhookPath, log: app.log });
    return guarded as unknown as Awaited<ReturnType<typeof original>>;
  };
}
