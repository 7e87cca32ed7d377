import { createHmac, createPublicKey, randomBytes, timingSafeEqual, verify as verifySig } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pipeline } from 'node:stream/promises';
import { routes, type Ctx, type Reply, type Route, type ViolationKind } from './routes.js';
import { getBackend, type OperationKey } from './spec.js';
import { FaultDice, faultReply, mixReply, takeFault, type FaultKind, type FaultMix, type FaultRule } from './faults.js';
import {
  ensureUser,
  newState,
  nextId,
  now,
  type FakeApp,
  type FakeCheckRun,
  type FakeCompare,
  type FakeInstallation,
  type FakeIssueComment,
  type FakeJob,
  type FakeLog,
  type FakePull,
  type FakePullFile,
  type FakeRepo,
  type FakeState,
  type Permission,
} from './state.js';

/**
 * A local GitHub for tests: an HTTP server on 127.0.0.1 that answers the REST endpoints a Redline GitHub
 * App uses, keeps their state in plain objects, and validates every request against GitHub's OpenAPI
 * description. Serves the same API under `/` and `/api/v3` (Probot with `GHE_HOST` + `GHE_PROTOCOL=http`).
 *
 * Redirect targets (job logs, tarballs) live on a second listener of the same fake — a different origin,
 * like GitHub's blob and codeload hosts — so a fetch that follows the redirect drops `Authorization` as it
 * does against github.com. The log host rejects a request that still carries it.
 */

export * from './state.js';
export { makeTarball, type TarEntry, type MakeTarballOptions } from './tarball.js';
export { deliver, examplePayload, generateAppKey, type DeliverOptions, type DeliveryResult } from './webhooks.js';
export { parsePatch, findLine } from './diff-hunks.js';
export { FAULT_KINDS, expiredLogLink, mulberry32, networkReset, primaryRateLimit, secondaryRateLimit, serverError, type FaultKind, type FaultMix, type FaultRule } from './faults.js';
export { BODY_MAX, CHECK_TEXT_MAX, ANNOTATIONS_PER_REQUEST, type ViolationKind } from './routes.js';

export interface FakeGitHubOptions {
  /** The App the fake plays GitHub for. Default `{ id: 1, slug: 'redline', name: 'Redline', owner: 'redline-dev' }`. */
  app?: Partial<FakeApp>;
  /** The App's private key (PEM): App JWTs are then verified (RS256 signature, `iss`, `exp`). */
  privateKey?: string;
  /** Web root for `html_url`s. Default `https://github.com`. */
  htmlUrl?: string;
  /**
   * Where redirect targets are served: 'separate' (default) a second port, i.e. another origin like
   * GitHub's blob host; 'same' the API's own origin (fetch then keeps `Authorization` on the redirect).
   */
  blobOrigin?: 'separate' | 'same';
  /** Lifetime of signed log/tarball URLs. Default 60 s (GitHub: about a minute). */
  blobTtlMs?: number;
  /** Installation token lifetime. Default 1 hour. */
  tokenTtlMs?: number;
}

export interface RecordedRequest {
  method: string;
  /** Path without the `/api/v3` prefix and without the query. */
  path: string;
  /** The raw request target. */
  url: string;
  prefix: '' | '/api/v3';
  host: 'api' | 'blob';
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON body, or the raw text when it is not JSON, or undefined. */
  body: unknown;
  operationId?: string;
  status?: number;
  /** When it arrived (ms, `performance.now()`): timing of retries and waits. */
  at: number;
}

export interface Violation {
  kind: ViolationKind;
  method: string;
  path: string;
  status: number;
  message: string;
  operationId?: string;
  /** ajv errors for `schema` violations. */
  errors?: unknown[];
}

export interface AddRepoOptions {
  private?: boolean;
  default_branch?: string;
  /** `owner/name` of the parent, for a fork. */
  fork_of?: string;
  /** Installation to add it to. Default: the owner's installation (created on first use); `false`: not installed. */
  installation?: number | false;
  permissions?: Record<string, Permission>;
  contents?: Record<string, string>;
}

export interface AddPullOptions {
  number?: number;
  title?: string;
  body?: string | null;
  state?: 'open' | 'closed';
  draft?: boolean;
  merged?: boolean;
  user?: string;
  head: { ref: string; sha: string; repo?: string };
  base?: { ref?: string; sha?: string };
  files?: FakePullFile[];
  commits?: string[];
}

export interface AddJobOptions extends Partial<Omit<FakeJob, 'steps'>> {
  head_sha: string;
  steps?: Array<Partial<FakeJob['steps'][number]> & { name: string }>;
  /** The job's log text, or the full log seed (404 N times first, gone, ...). */
  log?: string | FakeLog;
}

export interface FakeGitHub {
  /** `http://127.0.0.1:<port>` (no trailing slash). Octokit `baseUrl`. */
  url: string;
  /** `url + '/api/v3'` (what Probot uses with GHE_HOST). */
  apiV3Url: string;
  /** `127.0.0.1:<port>`, for `GHE_HOST`. */
  host: string;
  /** Origin of redirect targets (logs, tarballs). */
  blobUrl: string;
  state: FakeState;
  requests: RecordedRequest[];
  violations: Violation[];
  /** Injected faults (faults.ts): matching API requests answer with an error. */
  faults: FaultRule[];
  /** Seeded random faults at these rates from now on (faults.ts); `undefined` stops them. Resets the counts. */
  setFaultMix(mix: FaultMix | undefined): void;
  /** Faults the mix injected so far, by kind. */
  readonly faultCounts: Record<FaultKind, number>;
  /** The repo `owner/name`; throws when it was never added. */
  repo(fullName: string): FakeRepo;
  addInstallation(account: string, opts?: Partial<Omit<FakeInstallation, 'account'>>): FakeInstallation;
  addRepo(fullName: string, opts?: AddRepoOptions): FakeRepo;
  addPull(fullName: string, opts: AddPullOptions): FakePull;
  addJob(fullName: string, opts: AddJobOptions): FakeJob;
  /** A comparison `base...head` (GET /compare): its commits, oldest first, and the files they change. */
  addCompare(fullName: string, base: string, head: string, opts: Omit<FakeCompare, 'base' | 'head'>): FakeCompare;
  /**
   * Every credential's primary rate limit from now on: `remaining` requests left in the hour (and the
   * hour's `limit`). The fake counts each API request against it and answers 403 with
   * `x-ratelimit-remaining: 0` once it is spent, as GitHub does.
   */
  setRateLimit(remaining: number, opts?: { limit?: number; resetInS?: number }): void;
  /** A check run of another CI (default app `github-actions`), with its annotations. */
  addCheckRun(fullName: string, opts: Partial<FakeCheckRun> & { name: string; head_sha: string }): FakeCheckRun;
  addIssueComment(fullName: string, issueNumber: number, opts: { user: string; body: string }): FakeIssueComment;
  /** A token acting as `login` (a user PAT for tests that call the API as a person). */
  createToken(login: string): string;
  /** Requests recorded for `method` and a path matching `path` (string: exact, RegExp: test). */
  requestsTo(method: string, path: string | RegExp): RecordedRequest[];
  close(): Promise<void>;
}

const DEFAULT_APP: FakeApp = { id: 1, slug: 'redline', name: 'Redline', owner: 'redline-dev' };
const OPERATIONS: OperationKey[] = routes.map((r) => [r.method, r.template] as const);

interface CompiledRoute {
  route: Route;
  regex: RegExp;
  names: string[];
}

const compiled: CompiledRoute[] = routes.map((route) => {
  const names: string[] = [];
  const src = route.template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_m, name: string) => {
    names.push(name);
    return route.greedy?.includes(name) ? '(.+)' : '([^/]+)';
  });
  return { route, regex: new RegExp(`^${src}$`), names };
});

/** Starts a fake GitHub on 127.0.0.1 (random ports). Close it with `close()`. */
export async function startFakeGitHub(opts: FakeGitHubOptions = {}): Promise<FakeGitHub> {
  const backend = await getBackend(OPERATIONS);
  const app: FakeApp = { ...DEFAULT_APP, ...opts.app };
  const state = newState(app);
  ensureUser(state, `${app.slug}[bot]`, 'Bot');
  const requests: RecordedRequest[] = [];
  const violations: Violation[] = [];
  const faults: FaultRule[] = [];
  let dice: FaultDice | undefined;
  let lastCounts: Record<FaultKind, number> = new FaultDice({ seed: 0, rates: {} }).counts;
  const blobSecret = randomBytes(16).toString('hex');
  const blobTtl = opts.blobTtlMs ?? 60_000;
  const tokenTtl = opts.tokenTtlMs ?? 3_600_000;
  const htmlUrl = opts.htmlUrl ?? 'https://github.com';
  const publicKey = opts.privateKey ? createPublicKey(opts.privateKey) : undefined;

  let apiOrigin = '';
  let blobOrigin = '';

  const hmac = (s: string) => createHmac('sha256', blobSecret).update(s).digest('hex');
  const signBlob = (kind: 'log' | 'tarball', key: string): string => {
    const se = Date.now() + blobTtl;
    const path = kind === 'log' ? `/_blob/job-logs/${key}` : `/_codeload/${key}`;
    return `${blobOrigin}${path}?se=${se}&sig=${hmac(`${path}:${se}`)}`;
  };
  const issueToken = (installationId: number) => {
    const token = `ghs_${randomBytes(18).toString('hex')}`;
    const expires_at = new Date(Date.now() + tokenTtl).toISOString().replace(/\.\d{3}Z$/, 'Z');
    state.tokens[token] = { login: `${app.slug}[bot]`, installationId, expires_at };
    return { token, expires_at };
  };

  /** The credential GitHub counts a request against: the installation, the user, the App, or the caller's address. */
  const quotaKey = (auth: Pick<Ctx, 'actor' | 'installationId' | 'appJwt'>): string =>
    auth.installationId !== undefined ? `installation:${auth.installationId}` : auth.actor ? `user:${auth.actor}` : auth.appJwt ? 'app' : 'anonymous';
  /** The credential's current hour window (a fresh one once the reset has passed). */
  const quotaWindow = (key: string) => {
    const rl = state.rateLimit;
    const nowS = Math.floor(Date.now() / 1000);
    let w = rl.windows[key];
    if (!w) w = rl.windows[key] = { used: rl.initialUsed, resetAt: rl.initialResetAt && rl.initialResetAt > nowS ? rl.initialResetAt : nowS + 3600 };
    else if (w.resetAt <= nowS) w = rl.windows[key] = { used: 0, resetAt: nowS + 3600 };
    return w;
  };
  const quotaHeaders = (key: string | undefined): Record<string, string> => {
    const limit = state.rateLimit.limit;
    const w = key ? quotaWindow(key) : { used: 0, resetAt: Math.floor(Date.now() / 1000) + 3600 };
    return { 'x-ratelimit-limit': String(limit), 'x-ratelimit-remaining': String(Math.max(0, limit - w.used)), 'x-ratelimit-reset': String(w.resetAt), 'x-ratelimit-used': String(Math.min(limit, w.used)), 'x-ratelimit-resource': 'core' };
  };
  const quotaOf = new WeakMap<RecordedRequest, string>();

  function violate(rec: RecordedRequest, status: number, v: { kind: ViolationKind; message: string }, errors?: unknown[]) {
    violations.push({ kind: v.kind, method: rec.method, path: rec.path, status, message: v.message, ...(rec.operationId ? { operationId: rec.operationId } : {}), ...(errors ? { errors } : {}) });
  }

  function send(res: ServerResponse, rec: RecordedRequest, reply: Reply, errors?: unknown[]) {
    rec.status = reply.status;
    if (reply.violation) violate(rec, reply.status, reply.violation, errors);
    // Storage (the blob host) sends no API quota; the API sends the credential's real one.
    const headers: Record<string, string> = {
      ...(rec.host === 'blob' ? {} : { 'x-github-request-id': randomBytes(8).toString('hex').toUpperCase(), 'x-github-api-version-selected': '2022-11-28', ...quotaHeaders(quotaOf.get(rec)) }),
      ...reply.headers,
    };
    if (reply.raw !== undefined) {
      res.writeHead(reply.status, headers);
      res.end(reply.raw);
      return;
    }
    const text = reply.body === undefined ? '' : JSON.stringify(reply.body);
    res.writeHead(reply.status, { ...headers, 'content-type': 'application/json; charset=utf-8' });
    res.end(text);
  }

  /** Resolves the request's credentials; a Reply when they are refused. */
  function authenticate(req: IncomingMessage, route: Route): Reply | Pick<Ctx, 'actor' | 'installationId' | 'appJwt'> {
    const header = req.headers.authorization;
    const m = header ? /^(?:token|bearer)\s+(\S+)$/i.exec(header) : null;
    const cred = m?.[1];
    const isJwt = cred ? /^eyJ[\w-]*\.[\w-]+\.[\w-]+$/.test(cred) : false;
    const unauthorized = (message: string): Reply => ({ status: 401, body: { message, documentation_url: 'https://docs.github.com/rest', status: '401' }, violation: { kind: 'auth', message } });
    if (route.appAuth) {
      if (!cred || !isJwt) return unauthorized('A JSON web token could not be decoded');
      const problem = checkJwt(cred);
      return problem ? unauthorized(problem) : { appJwt: true };
    }
    if (!header) return {};
    if (!cred) return unauthorized('Bad credentials');
    if (isJwt) return unauthorized('A JSON web token can only be used for /app endpoints; use an installation token');
    const t = state.tokens[cred];
    if (!t) return unauthorized('Bad credentials');
    if (Date.parse(t.expires_at) < Date.now()) return unauthorized('Bad credentials (token expired)');
    return { actor: t.login, ...(t.installationId !== undefined ? { installationId: t.installationId } : {}) };
  }

  function checkJwt(jwt: string): string | undefined {
    const [h, p, s] = jwt.split('.') as [string, string, string];
    let payload: { iss?: unknown; exp?: number; iat?: number };
    try {
      const head = JSON.parse(Buffer.from(h, 'base64url').toString()) as { alg?: string };
      if (head.alg !== 'RS256') return `JWT alg must be RS256, got ${head.alg}`;
      payload = JSON.parse(Buffer.from(p, 'base64url').toString());
    } catch {
      return 'A JSON web token could not be decoded';
    }
    const nowS = Math.floor(Date.now() / 1000);
    if (String(payload.iss) !== String(app.id)) return `'Issuer' claim ('iss') must be the App id ${app.id}`;
    if (typeof payload.exp !== 'number' || payload.exp < nowS) return "'Expiration time' claim ('exp') must be a numeric value representing the future time at which the assertion expires";
    if (payload.exp - (payload.iat ?? nowS) > 600 + 60) return "'Expiration time' claim ('exp') is too far in the future";
    if (publicKey && !verifySig('RSA-SHA256', Buffer.from(`${h}.${p}`), publicKey, Buffer.from(s, 'base64url'))) {
      return 'A JSON web token could not be decoded (bad signature)';
    }
    return undefined;
  }

  function serveBlob(req: IncomingMessage, res: ServerResponse, rec: RecordedRequest, url: URL) {
    const se = Number(url.searchParams.get('se'));
    const sig = url.searchParams.get('sig') ?? '';
    const want = hmac(`${url.pathname}:${se}`);
    const xml = (status: number, code: string, msg: string, v?: Reply['violation']) =>
      send(res, rec, { status, raw: `<?xml version="1.0" encoding="utf-8"?><Error><Code>${code}</Code><Message>${msg}</Message></Error>`, headers: { 'content-type': 'application/xml' }, ...(v ? { violation: v } : {}) });
    if (req.method !== 'GET' && req.method !== 'HEAD') return xml(405, 'UnsupportedHttpVerb', 'The resource doesn\'t support the specified HTTP verb.');
    if (sig.length !== want.length || !timingSafeEqual(Buffer.from(sig), Buffer.from(want))) {
      return xml(403, 'AuthenticationFailed', 'Signature did not match.', { kind: 'rule', message: 'blob URL with a bad signature' });
    }
    if (!(se > Date.now())) return xml(403, 'AuthenticationFailed', 'Signed expiry time has passed.');
    const logMatch = /^\/_blob\/job-logs\/([^/]+)\/([^/]+)\/(\d+)$/.exec(url.pathname);
    if (logMatch) {
      // Blob storage refuses a second auth scheme next to the SAS signature.
      if (req.headers.authorization) {
        return xml(400, 'InvalidAuthenticationInfo', 'Authentication information is not given in the correct format.', { kind: 'blob-auth', message: 'Authorization header sent to the job-log blob URL (the redirect must not forward it)' });
      }
      const log = state.repos[`${logMatch[1]}/${logMatch[2]}`]?.logs[Number(logMatch[3])];
      if (!log) return xml(404, 'BlobNotFound', 'The specified blob does not exist.');
      const rule = takeFault(faults, 'GET', url.pathname);
      const drawn = rule ? undefined : dice?.roll('log-blob', `GET blob ${url.pathname}`);
      if (rule?.reset || drawn === 'networkReset') return resetConnection(res, rec);
      if (rule || drawn === 'logLinkExpired') return xml(rule?.status ?? 403, 'AuthenticationFailed', 'Signed expiry time has passed.');
      if (log.stream) {
        rec.status = 200;
        res.writeHead(200, { 'content-type': log.contentType ?? 'text/plain; charset=utf-8' });
        // A client that stops reading (diagnose has what it needs) ends the download: no error for that.
        pipeline(log.stream(), res).catch(() => {});
        return;
      }
      return send(res, rec, { status: 200, raw: log.text, headers: { 'content-type': log.contentType ?? 'text/plain; charset=utf-8' } });
    }
    const tarMatch = /^\/_codeload\/([^/]+)\/([^/]+)\/(.+)$/.exec(url.pathname);
    if (tarMatch) {
      const [, owner, name, ref] = tarMatch as unknown as [string, string, string, string];
      const buf = state.repos[`${owner}/${name}`]?.tarballs[decodeURIComponent(ref)];
      if (!buf) return send(res, rec, { status: 404, raw: 'Not Found', headers: { 'content-type': 'text/plain' } });
      const short = decodeURIComponent(ref).slice(0, 7);
      return send(res, rec, { status: 200, raw: buf, headers: { 'content-type': 'application/x-gzip', 'content-disposition': `attachment; filename=${owner}-${name}-${short}.tar.gz`, 'content-length': String(buf.length) } });
    }
    return xml(404, 'ResourceNotFound', 'The specified resource does not exist.');
  }

  async function handle(req: IncomingMessage, res: ServerResponse, host: 'api' | 'blob') {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://fake');
    const prefix: '' | '/api/v3' = url.pathname.startsWith('/api/v3/') || url.pathname === '/api/v3' ? '/api/v3' : '';
    const path = url.pathname.slice(prefix.length) || '/';
    let body: unknown = raw === '' ? undefined : raw;
    try {
      if (raw !== '') body = JSON.parse(raw);
    } catch {
      // kept as text; a JSON route answers 400 below
    }
    const rec: RecordedRequest = { method: req.method ?? 'GET', path, url: req.url ?? '/', prefix, host, query: Object.fromEntries(url.searchParams), headers: { ...req.headers }, body, at: performance.now() };
    requests.push(rec);

    if (host === 'blob' || path.startsWith('/_blob/') || path.startsWith('/_codeload/')) {
      if (host === 'blob' || opts.blobOrigin === 'same') return serveBlob(req, res, rec, url);
    }

    let match: { c: CompiledRoute; m: RegExpExecArray } | undefined;
    for (const c of compiled) {
      if (c.route.method !== rec.method) continue;
      const m = c.regex.exec(path);
      if (m) {
        match = { c, m };
        break;
      }
    }
    if (!match) {
      return send(res, rec, { status: 404, body: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest', status: '404' }, violation: { kind: 'route', message: `no such endpoint: ${rec.method} ${path}` } });
    }
    const { route } = match.c;
    const params: Record<string, string> = {};
    match.c.names.forEach((n, i) => {
      params[n] = decodeURIComponent(match.m[i + 1] ?? '');
    });
    const operation = backend.router.getOperations().find((o: { path: string; method: string }) => o.path === route.template && o.method === route.method.toLowerCase());
    rec.operationId = operation?.operationId;

    if (typeof body === 'string') {
      return send(res, rec, { status: 400, body: { message: 'Problems parsing JSON', documentation_url: 'https://docs.github.com/rest', status: '400' }, violation: { kind: 'json', message: 'request body is not JSON' } });
    }

    // Validate against GitHub's description (path rebuilt with encoded params so `/` in `{path}` matches).
    const normalized = route.template.replace(/\{(\w+)\}/g, (_m, n: string) => encodeURIComponent(params[n] ?? ''));
    const result = backend.validator.validateRequest(
      { method: rec.method.toLowerCase(), path: `${normalized}${url.search}`, headers: req.headers as Record<string, string>, body: body as never },
      operation!,
    );
    if (!result.valid) {
      const errors = result.errors ?? [];
      const message = `Invalid request.\n\n${errors.map((e: { instancePath?: string; message?: string; params?: object }) => `${e.instancePath || '/'} ${e.message}${e.params && 'allowedValues' in e.params ? `: ${JSON.stringify((e.params as { allowedValues: unknown }).allowedValues)}` : ''}`).join('\n')}`;
      return send(res, rec, { status: 422, body: { message, documentation_url: 'https://docs.github.com/rest', status: '422' }, violation: { kind: 'schema', message } }, errors);
    }

    const auth = authenticate(req, route);
    if ('status' in auth) return send(res, rec, auth);
    // The primary rate limit: each request is counted against its credential's hour; a spent one is refused.
    const key = quotaKey(auth);
    quotaOf.set(rec, key);
    const window = quotaWindow(key);
    if (window.used >= state.rateLimit.limit) {
      const who = auth.installationId !== undefined ? `installation ID ${auth.installationId}` : auth.actor ? `user ID ${ensureUser(state, auth.actor).id}` : '127.0.0.1';
      return send(res, rec, { status: 403, body: { message: `API rate limit exceeded for ${who}. If you reach out to GitHub Support for help, please include the request ID.`, documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api', status: '403' } });
    }
    window.used++;
    const ctx: Ctx = {
      state,
      urls: { api: `http://${req.headers.host ?? apiOrigin.slice(7)}${prefix}`, html: htmlUrl },
      params,
      query: url.searchParams,
      body: body ?? {},
      ...auth,
      signBlob,
      issueToken,
    };
    const fault = takeFault(faults, rec.method, path);
    if (fault?.reset && !fault.afterEffect) return resetConnection(res, rec);
    if (fault && !fault.afterEffect) return send(res, rec, faultReply(fault));
    // The mix spares the App's credentials: a token that cannot be minted is Probot's problem, not ours.
    const drawn = fault || route.appAuth ? undefined : dice?.roll(rec.method === 'GET' || rec.method === 'HEAD' ? 'api-read' : 'api-write', `${rec.method} ${path}`);
    if (drawn === 'networkReset') return resetConnection(res, rec);
    if (drawn && drawn !== 'serverErrorAfterEffect' && drawn !== 'networkResetAfterEffect') return send(res, rec, mixReply(drawn)!);
    let reply: Reply;
    try {
      reply = route.handler(ctx);
    } catch (err) {
      reply = { status: 500, body: { message: `fake-github bug: ${(err as Error).stack}` } };
    }
    if (fault?.reset || drawn === 'networkResetAfterEffect') return resetConnection(res, rec);
    send(res, rec, fault ? faultReply(fault) : drawn ? mixReply(drawn)! : reply);
  }

  /** A connection dropped without an answer (ECONNRESET / "other side closed" at the client). */
  function resetConnection(res: ServerResponse, rec: RecordedRequest) {
    rec.status = 0;
    res.destroy();
  }

  const listen = (server: Server) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
    });
  const onError = (res: ServerResponse) => (err: unknown) => {
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
    res.end(`fake-github crashed: ${(err as Error).stack}`);
  };
  const apiServer = createServer((req, res) => void handle(req, res, 'api').catch(onError(res)));
  const apiPort = await listen(apiServer);
  apiOrigin = `http://127.0.0.1:${apiPort}`;
  let blobServer: Server | undefined;
  if (opts.blobOrigin === 'same') {
    blobOrigin = apiOrigin;
  } else {
    blobServer = createServer((req, res) => void handle(req, res, 'blob').catch(onError(res)));
    blobOrigin = `http://127.0.0.1:${await listen(blobServer)}`;
  }

  const getRepo = (fullName: string): FakeRepo => {
    const r = state.repos[fullName];
    if (!r) throw new Error(`fake-github: repo ${fullName} was not added (addRepo)`);
    return r;
  };

  const fake: FakeGitHub = {
    url: apiOrigin,
    apiV3Url: `${apiOrigin}/api/v3`,
    host: apiOrigin.slice('http://'.length),
    blobUrl: blobOrigin,
    state,
    requests,
    violations,
    faults,
    setFaultMix(mix) {
      dice = mix ? new FaultDice(mix) : undefined;
      // Stopping the mix keeps its counts readable; a new mix counts from zero.
      if (dice) lastCounts = dice.counts;
    },
    get faultCounts() {
      return { ...lastCounts };
    },
    repo: getRepo,
    addInstallation(account, o = {}) {
      const id = o.id ?? nextId(state);
      ensureUser(state, account);
      const inst: FakeInstallation = { id, account, repos: o.repos ?? [], ...(o.permissions ? { permissions: o.permissions } : {}), ...(o.events ? { events: o.events } : {}) };
      state.installations[id] = inst;
      return inst;
    },
    addRepo(fullName, o = {}) {
      const [owner, name] = fullName.split('/') as [string, string];
      ensureUser(state, owner);
      const repo: FakeRepo = {
        id: nextId(state), owner, name, private: o.private ?? false, default_branch: o.default_branch ?? 'main',
        ...(o.fork_of ? { fork_of: o.fork_of } : {}),
        permissions: { ...o.permissions }, contents: { ...o.contents }, tarballs: {}, pulls: {}, commitPulls: {}, jobs: {}, logs: {}, compares: {},
        issueComments: [], reviewComments: [], reviews: [], checkRuns: [],
      };
      state.repos[fullName] = repo;
      if (o.installation !== false) {
        const inst = o.installation !== undefined
          ? state.installations[o.installation] ?? fake.addInstallation(owner, { id: o.installation })
          : Object.values(state.installations).find((i) => i.account === owner) ?? fake.addInstallation(owner);
        if (!inst.repos.includes(fullName)) inst.repos.push(fullName);
      }
      return repo;
    },
    addPull(fullName, o) {
      const repo = getRepo(fullName);
      const number = o.number ?? Math.max(0, ...Object.keys(repo.pulls).map(Number), ...repo.issueComments.map((c) => c.issue_number)) + 1;
      const t = now();
      const user = o.user ?? (o.head.repo ? o.head.repo.split('/')[0]! : 'octocat');
      ensureUser(state, user);
      const pr: FakePull = {
        number, id: nextId(state), title: o.title ?? `PR ${number}`, body: o.body ?? null, state: o.state ?? 'open', draft: o.draft ?? false,
        merged: o.merged ?? false, user,
        head: { ref: o.head.ref, sha: o.head.sha, ...(o.head.repo && o.head.repo !== fullName ? { repo: o.head.repo } : {}) },
        base: { ref: o.base?.ref ?? repo.default_branch, sha: o.base?.sha ?? 'b'.repeat(40) },
        files: o.files ?? [], commits: o.commits ?? [], created_at: t, updated_at: t,
      };
      repo.pulls[number] = pr;
      return pr;
    },
    addJob(fullName, o) {
      const repo = getRepo(fullName);
      const { log, steps, ...rest } = o;
      const id = o.id ?? nextId(state);
      const job: FakeJob = {
        id, run_id: o.run_id ?? nextId(state), name: 'build', workflow_name: 'CI', head_branch: 'main', status: 'completed', conclusion: 'failure',
        run_attempt: 1, labels: ['ubuntu-latest'], started_at: now(), completed_at: now(), ...rest,
        steps: (steps ?? [{ name: 'Set up job', conclusion: 'success' }, { name: 'Run npm test', conclusion: o.conclusion ?? 'failure' }]).map((s, i) => ({
          number: i + 1, status: 'completed', conclusion: null, ...s,
        })),
      };
      repo.jobs[id] = job;
      if (log !== undefined) repo.logs[id] = typeof log === 'string' ? { text: log } : log;
      return job;
    },
    addCompare(fullName, base, head, o) {
      const cmp: FakeCompare = { base, head, commits: o.commits, files: o.files };
      getRepo(fullName).compares[`${base}...${head}`] = cmp;
      return cmp;
    },
    setRateLimit(remaining, o = {}) {
      const limit = o.limit ?? state.rateLimit.limit;
      state.rateLimit = { limit, initialUsed: Math.max(0, limit - remaining), initialResetAt: Math.floor(Date.now() / 1000) + (o.resetInS ?? 3600), windows: {} };
    },
    addCheckRun(fullName, o) {
      const repo = getRepo(fullName);
      const run: FakeCheckRun = {
        id: nextId(state), status: 'completed', conclusion: 'failure', details_url: null, external_id: null, started_at: now(), completed_at: now(),
        output: { title: null, summary: null, text: null }, annotations: [], app: 'github-actions', check_suite_id: nextId(state), ...o,
      };
      repo.checkRuns.push(run);
      return run;
    },
    addIssueComment(fullName, issueNumber, o) {
      const repo = getRepo(fullName);
      ensureUser(state, o.user);
      const t = now();
      const c: FakeIssueComment = { id: nextId(state), issue_number: issueNumber, user: o.user, body: o.body, author_association: o.user === repo.owner ? 'OWNER' : 'CONTRIBUTOR', performed_via_github_app: false, created_at: t, updated_at: t, reactions: [] };
      repo.issueComments.push(c);
      return c;
    },
    createToken(login) {
      ensureUser(state, login);
      const token = `ghp_${randomBytes(18).toString('hex')}`;
      state.tokens[token] = { login, expires_at: '2099-01-01T00:00:00Z' };
      return token;
    },
    requestsTo(method, path) {
      return requests.filter((r) => r.method === method && (typeof path === 'string' ? r.path === path : path.test(r.path)));
    },
    close: async () => {
      const closeOne = (s: Server) => new Promise<void>((resolve) => {
        s.close(() => resolve());
        s.closeAllConnections();
      });
      await Promise.all([closeOne(apiServer), ...(blobServer ? [closeOne(blobServer)] : [])]);
    },
  };
  return fake;
}
