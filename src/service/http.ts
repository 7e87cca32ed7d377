/**
 * The App's own HTTP routes (mounted through Probot's `addHandler`):
 * - `/redline/status`: recent diagnoses, queue depth and feedback counts, behind a shared token;
 * - `/redline/artifacts/<id>/<name>?exp=&sig=`: a diagnosis's artifacts at signed, expiring links.
 * Nothing here echoes request text unescaped, and no path is ever built from a request.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type ArtifactName, type ArtifactSigner, type ArtifactStore, ARTIFACT_NAMES, isArtifactId, isArtifactName } from './artifact-store.js';
import type { RepoFeedback } from './feedback.js';
import type { RecentDiagnosis } from './recent.js';
import type { DeadLetter } from '../queue/queue.js';

export interface StatusSnapshot {
  queueDepth: number;
  /** Jobs whose retries were spent, newest first (their errors are redacted one-liners). */
  deadLetters: DeadLetter[];
  recent: RecentDiagnosis[];
  feedback: Record<string, RepoFeedback>;
}

export interface RoutesDeps {
  /** REDLINE_STATUS_TOKEN; the status page is off (404) without it. */
  statusToken?: string | undefined;
  /** Gathers the page (refreshes the feedback counts first). */
  status: () => Promise<StatusSnapshot>;
  artifacts: ArtifactStore;
  signer: ArtifactSigner;
  now?: () => number;
}

/** The pseudo-artifact listing the others (its own signed link is the one put in the comment). */
export const ARTIFACT_INDEX = 'index.html';

const COMMON_HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
};

function send(res: ServerResponse, status: number, type: string, body: string | Buffer, extra: Record<string, string> = {}, head = false): true {
  const buf = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  res.writeHead(status, { ...COMMON_HEADERS, 'content-type': type, 'content-length': String(buf.length), ...extra });
  res.end(head ? undefined : buf);
  return true;
}

const text = (res: ServerResponse, status: number, msg: string, extra: Record<string, string> = {}): true => send(res, status, 'text/plain; charset=utf-8', `${msg}\n`, extra);

/** Escapes text for HTML element content and quoted attributes. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"'`]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Constant-time token check (both sides hashed first, so lengths do not leak either). */
export function tokenMatches(given: string | undefined, want: string): boolean {
  if (!given) return false;
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(want).digest();
  return timingSafeEqual(a, b);
}

function bearer(req: IncomingMessage): string | undefined {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  return m?.[1];
}

/** The raw path (not normalised: `..` stays visible and is refused) and the query of a request. */
function splitUrl(req: IncomingMessage): { path: string; query: URLSearchParams } {
  const raw = req.url ?? '/';
  const q = raw.indexOf('?');
  return { path: q < 0 ? raw : raw.slice(0, q), query: new URLSearchParams(q < 0 ? '' : raw.slice(q + 1)) };
}

function statusHtml(s: StatusSnapshot): string {
  const rows = s.recent
    .map((d) => `<tr><td>${escapeHtml(d.at)}</td><td>${escapeHtml(d.repo)}</td><td>#${d.pr}</td><td><code>${escapeHtml(d.pin ?? '—')}</code></td><td>${escapeHtml(d.category)}</td><td>${escapeHtml(d.tier)} / ${escapeHtml(d.action)}</td><td>${Math.round(d.ms)}</td></tr>`)
    .join('\n');
  const fb = Object.entries(s.feedback)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([repo, c]) => `<tr><td>${escapeHtml(repo)}</td><td>${c.up}</td><td>${c.down}</td><td>${c.comments}</td></tr>`)
    .join('\n');
  const dead = s.deadLetters.map((d) => `<tr><td>${escapeHtml(d.at)}</td><td>${escapeHtml(d.id)}</td><td>${d.attempts}</td><td><code>${escapeHtml(d.error)}</code></td></tr>`).join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Redline status</title>
<style>body{font:14px system-ui,sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left}</style></head>
<body><h1>Redline status</h1>
<p>Queue depth: ${s.queueDepth}</p>
<h2>Dead letters</h2>
<table><tr><th>Time</th><th>Job</th><th>Attempts</th><th>Last error</th></tr>
${dead}
</table>
<h2>Feedback</h2>
<table><tr><th>Repository</th><th>👍</th><th>👎</th><th>Comments</th></tr>
${fb}
</table>
<h2>Recent diagnoses</h2>
<table><tr><th>Time</th><th>Repository</th><th>PR</th><th>Pin</th><th>Category</th><th>Comment</th><th>ms</th></tr>
${rows}
</table></body></html>
`;
}

function indexHtml(id: string, exp: number, signer: ArtifactSigner): string {
  const items = ARTIFACT_NAMES.map((n) => `<li><a href="./${escapeHtml(n)}?exp=${exp}&amp;sig=${signer.sign(id, n, exp)}">${escapeHtml(n)}</a></li>`).join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Redline artifacts</title></head>
<body><h1>Redline artifacts</h1>
<p>Secrets are redacted. These links expire at ${escapeHtml(new Date(exp * 1000).toISOString())}.</p>
<ul>
${items}
</ul></body></html>
`;
}

const TYPES: Record<ArtifactName, string> = {
  'raw.log': 'text/plain; charset=utf-8',
  'cleaned.log': 'text/plain; charset=utf-8',
  'diagnosis.json': 'application/json; charset=utf-8',
  'trace.json': 'application/json; charset=utf-8',
};

/**
 * A Probot handler: answers (and returns true) for `/redline/status` and `/redline/artifacts/…`;
 * returns false for anything else so the webhook middleware and other handlers get it.
 */
export function redlineRoutes(deps: RoutesDeps): (req: IncomingMessage, res: ServerResponse) => Promise<boolean> {
  const now = deps.now ?? Date.now;
  return async (req, res) => {
    const { path, query } = splitUrl(req);
    const isStatus = path === '/redline/status' || path === '/redline/status/';
    const isArtifact = path === '/redline/artifacts' || path.startsWith('/redline/artifacts/');
    if (!isStatus && !isArtifact) return false;
    const head = req.method === 'HEAD';
    if (req.method !== 'GET' && !head) return text(res, 405, 'method not allowed', { allow: 'GET, HEAD' });

    if (isStatus) {
      if (!deps.statusToken) return text(res, 404, 'not found');
      if (!tokenMatches(bearer(req) ?? query.get('token') ?? undefined, deps.statusToken)) {
        return text(res, 401, 'a status token is needed (Authorization: Bearer <token>, or ?token=)', { 'www-authenticate': 'Bearer realm="redline"' });
      }
      const snap = await deps.status();
      const html = query.get('format') === 'html' || (query.get('format') !== 'json' && /\btext\/html\b/.test(req.headers.accept ?? ''));
      return html
        ? send(res, 200, 'text/html; charset=utf-8', statusHtml(snap), {}, head)
        : send(res, 200, 'application/json; charset=utf-8', `${JSON.stringify(snap, null, 2)}\n`, {}, head);
    }

    // /redline/artifacts/<id>/<name>: exactly two segments, both from fixed shapes; anything else is unknown.
    const m = /^\/redline\/artifacts\/([^/]+)\/([^/]+)$/.exec(path);
    let name: string | undefined;
    try {
      name = m ? decodeURIComponent(m[2]!) : undefined;
    } catch {
      name = undefined;
    }
    const id = m?.[1];
    if (!id || !isArtifactId(id) || !name || !(isArtifactName(name) || name === ARTIFACT_INDEX)) return text(res, 404, 'not found');
    const expRaw = query.get('exp') ?? '';
    const exp = /^\d{1,12}$/.test(expRaw) ? Number(expRaw) : NaN;
    if (!Number.isFinite(exp) || !deps.signer.verify(id, name, exp, query.get('sig') ?? '')) return text(res, 403, 'bad or missing signature');
    if (exp * 1000 <= now()) return text(res, 410, 'this link has expired');
    if (name === ARTIFACT_INDEX) {
      // Only list what is still there.
      if (!(await deps.artifacts.get(id, 'diagnosis.json'))) return text(res, 410, 'these artifacts are gone');
      return send(res, 200, 'text/html; charset=utf-8', indexHtml(id, exp, deps.signer), {}, head);
    }
    const data = await deps.artifacts.get(id, name as ArtifactName);
    if (!data) return text(res, 410, 'this artifact is gone');
    return send(res, 200, TYPES[name as ArtifactName], data, { 'content-disposition': `inline; filename="${name}"` }, head);
  };
}
