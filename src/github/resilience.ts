/**
 * Faults on the way to GitHub, handled where Probot's Octokit leaves them (probot 14):
 *
 * - Secondary rate limits: Probot's throttle handler (`getOctokitThrottleOptions`) only logs them and
 *   does not retry, and @octokit/plugin-retry never retries a 403. Here they are retried after the
 *   `retry-after` GitHub sends, a bounded number of times, and not at all when it asks for longer than
 *   we wait (the job then fails and says so, instead of holding a queue slot for minutes).
 * - 5xx on our writes: plugin-retry would repeat a POST blindly (1, 4, 9 s), and a 502 can come after
 *   GitHub stored the comment, which then appears twice. Writes are taken out of plugin-retry
 *   (`request.retries: 0`) and retried here with a doubling wait; before a create is sent again, the
 *   thing it creates is looked up by its marker (fingerprint, check-run external id) and adopted when
 *   it landed. PATCH and DELETE are idempotent and simply repeated.
 *
 * Primary rate limits (`x-ratelimit-remaining: 0`) stay with the throttling plugin. Reads keep
 * plugin-retry's own 5xx retries.
 */
import { markRedacting, redactRequestParams } from '../report/redact-everything.js';
import { formatFingerprint, parseFingerprint } from '../report/fingerprint.js';
import { type GitHub, listAll, statusOf } from './client.js';
import { anyBot, type IsOurs } from './comments.js';

export interface ResilienceOptions {
  /** Retries of a write answered 5xx (default 3: 1 + 2 + 4 s). */
  writeRetries?: number;
  /** First wait before a write is retried (default 1 s; doubles). */
  baseDelayMs?: number;
  /** Retries after a secondary rate limit (default 3). */
  rateLimitRetries?: number;
  /** The longest `retry-after` (seconds) we wait; longer is given up at once (default 60). */
  maxRetryAfterS?: number;
  /** Without retry-after, GitHub says to wait at least a minute; tests shorten this (seconds, default 60). */
  fallbackRetryAfterS?: number;
  /** Injected so tests do not wait for real. */
  sleep?: (ms: number) => Promise<void>;
  /** Which comments are ours, to adopt a create that landed before its 5xx. */
  isOurs?: IsOurs;
  /** Told about each retry (the App logs it). */
  onRetry?: (info: { route: string; status: number | undefined; attempt: number; waitMs: number; reason: 'secondary-rate-limit' | 'server-error' }) => void;
}

export const WRITE_RETRIES = 3;
export const WRITE_RETRY_BASE_MS = 1_000;
export const RATE_LIMIT_RETRIES = 3;
export const MAX_RETRY_AFTER_S = 60;

const realSleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

interface ErrorLike {
  status?: number;
  message?: string;
  response?: { headers?: Record<string, string | undefined>; data?: unknown };
}

/** GitHub's secondary (abuse) limit: 403 or 429 with a retry-after or the message, while the primary quota is not spent. */
export function secondaryRetryAfter(e: unknown, fallbackS: number): number | undefined {
  const err = e as ErrorLike | null;
  const status = statusOf(e);
  if (status !== 403 && status !== 429) return undefined;
  const headers = err?.response?.headers ?? {};
  if (headers['x-ratelimit-remaining'] === '0') return undefined;
  const said = /secondary rate limit/i.test(`${err?.message ?? ''} ${JSON.stringify(err?.response?.data ?? '')}`);
  const after = Number(headers['retry-after']);
  if (Number.isFinite(after) && after >= 0 && headers['retry-after'] !== undefined) return after;
  return said || status === 429 ? fallbackS : undefined;
}

const isServerError = (e: unknown): boolean => {
  const s = statusOf(e);
  return s !== undefined && s >= 500 && s <= 599;
};

type Params = Record<string, unknown> & { request?: Record<string, unknown> };

/**
 * `gh` with the retries above. Only `request` is wrapped (the one method src/github uses), so it fits
 * Probot's Octokit, @octokit/rest and a test client alike.
 */
export function resilient(gh: GitHub, opts: ResilienceOptions = {}): GitHub {
  const sleep = opts.sleep ?? realSleep;
  const writeRetries = opts.writeRetries ?? WRITE_RETRIES;
  const rateRetries = opts.rateLimitRetries ?? RATE_LIMIT_RETRIES;
  const maxAfter = opts.maxRetryAfterS ?? MAX_RETRY_AFTER_S;
  const fallbackAfter = opts.fallbackRetryAfterS ?? 60;
  const base = opts.baseDelayMs ?? WRITE_RETRY_BASE_MS;
  const isOurs = opts.isOurs ?? anyBot;

  const request = async (route: string, params: Params = {}): Promise<unknown> => {
    const method = route.split(' ')[0]!.toUpperCase();
    const write = method !== 'GET' && method !== 'HEAD';
    // Our own retries for writes: plugin-retry's would repeat a create that may have landed.
    // Every write leaves the process redacted (secretlint's preset + our patterns), whichever caller made it.
    const safe = write ? await redactRequestParams(route, params) : params;
    const p: Params = write ? { ...safe, request: { ...safe.request, retries: 0 } } : safe;
    let serverRetries = 0;
    let rateRetriesUsed = 0;
    for (let attempt = 1; ; attempt++) {
      try {
        return await gh.request(route, p as never);
      } catch (e) {
        const after = secondaryRetryAfter(e, fallbackAfter);
        if (after !== undefined) {
          if (rateRetriesUsed >= rateRetries || after > maxAfter) throw e;
          rateRetriesUsed++;
          const waitMs = Math.ceil(after * 1000);
          opts.onRetry?.({ route, status: statusOf(e), attempt, waitMs, reason: 'secondary-rate-limit' });
          await sleep(waitMs);
          continue;
        }
        if (!write || !isServerError(e) || serverRetries >= writeRetries) throw e;
        const waitMs = base * 2 ** serverRetries;
        serverRetries++;
        opts.onRetry?.({ route, status: statusOf(e), attempt, waitMs, reason: 'server-error' });
        await sleep(waitMs);
        if (method === 'POST') {
          const got = await landed(gh, route, params, isOurs).catch(() => undefined);
          if (got) return got;
        }
      }
    }
  };
  return markRedacting({ request: request as unknown as GitHub['request'] });
}

/** The marker a create carries: the fingerprint in a comment body, or a check run's external id; and the body. */
function markerOf(route: string, params: Params): { marker: string; body?: string } | undefined {
  if (route.endsWith('/check-runs')) return typeof params.external_id === 'string' ? { marker: params.external_id } : undefined;
  const bodies = route.endsWith('/reviews') ? ((params.comments as { body?: string }[] | undefined) ?? []).map((c) => c.body) : [params.body as string | undefined];
  const body = bodies.find((b) => parseFingerprint(b));
  return body ? { marker: formatFingerprint(parseFingerprint(body)!), body } : undefined;
}

const norm = (s: string): string => s.replace(/\r\n/g, '\n').trim();

interface Listed {
  id: number;
  body?: string | null;
  user?: { login?: string; type?: string } | null;
  pull_request_review_id?: number | null;
  external_id?: string | null;
  head_sha?: string;
}

/**
 * Whether a create answered 5xx did land after all: the comment with the same fingerprint by us, or
 * the check run with the same external id. Returns a response shaped like the create's, or undefined.
 */
async function landed(gh: GitHub, route: string, params: Params, isOurs: IsOurs): Promise<unknown> {
  const m = markerOf(route, params);
  if (!m) return undefined;
  const { marker } = m;
  const ref = { owner: params.owner, repo: params.repo };
  // Same fingerprint AND same body: an older comment of the same failure elsewhere is not this create.
  const ours = (c: Listed): boolean => isOurs(c.user) && !!c.body && m.body !== undefined && norm(c.body) === norm(m.body);
  if (route === 'POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews' || route === 'POST /repos/{owner}/{repo}/pulls/{pull_number}/comments') {
    const list = await listAll<Listed>(gh, 'GET /repos/{owner}/{repo}/pulls/{pull_number}/comments', { ...ref, pull_number: params.pull_number });
    const hit = list.find(ours);
    if (!hit) return undefined;
    const id = route.endsWith('/reviews') ? hit.pull_request_review_id ?? hit.id : hit.id;
    return { status: 200, url: '', headers: {}, data: { ...hit, id } };
  }
  if (route === 'POST /repos/{owner}/{repo}/issues/{issue_number}/comments') {
    const list = await listAll<Listed>(gh, 'GET /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...ref, issue_number: params.issue_number });
    const hit = list.find(ours);
    return hit ? { status: 201, url: '', headers: {}, data: hit } : undefined;
  }
  if (route === 'POST /repos/{owner}/{repo}/check-runs' && typeof params.head_sha === 'string') {
    const { data } = await gh.request('GET /repos/{owner}/{repo}/commits/{ref}/check-runs', { ...ref, ref: params.head_sha, check_name: params.name as string, per_page: 100 } as never);
    const hit = (data as { check_runs: Listed[] }).check_runs.find((c) => c.external_id === marker);
    return hit ? { status: 201, url: '', headers: {}, data: hit } : undefined;
  }
  return undefined;
}
