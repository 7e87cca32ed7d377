/**
 * Faults on the way to GitHub, handled where Probot's Octokit leaves them (probot 14):
 *
 * - Secondary rate limits: Probot's throttle handler (`getOctokitThrottleOptions`) only logs them and
 *   does not retry, and @octokit/plugin-retry never retries a 403. Here they are retried after the
 *   `retry-after` GitHub sends, a bounded number of times, and not at all when it asks for longer than
 *   we wait (the job then fails and says so, instead of holding a queue slot for minutes).
 * - Primary rate limits (403/429 with `x-ratelimit-remaining: 0`): plugin-throttling waits for the reset
 *   when it is on, but the App's tests and plain clients run without it, and a worker should not sleep
 *   through an hour's reset. Here a reset close by is waited for (until `x-ratelimit-reset` by GitHub's
 *   own clock, its `date` header, plus a second as plugin-throttling does); one further away than
 *   `maxResetWaitS` is given up at once, and the queue retries the job no sooner than the reset (src/tasks/run-task.ts).
 * - 5xx and dropped connections on our writes: plugin-retry would repeat a POST blindly (1, 4, 9 s),
 *   and a 502 or a reset can come after GitHub stored the comment, which then appears twice. Writes are
 *   taken out of plugin-retry (`request.retries: 0`) and retried here with a doubling wait; before a
 *   create is sent again, the thing it creates is looked up by its marker (fingerprint, check-run
 *   external id) and adopted when it landed. PATCH and DELETE are idempotent and simply repeated.
 * - 5xx and dropped connections on reads: plugin-retry does retry them (a reset reaches it as status
 *   500 "other side closed"), but @octokit/plugin-retry 8.1 keeps its retry count in the client's
 *   shared `request` defaults, so after one retry every later first retry on that client waits 4 or
 *   9 s instead of 1 (measured against the local GitHub); it also retries a 429 without reading its
 *   `retry-after`, and the Action's @octokit/rest has no plugin at all. Reads are therefore taken out
 *   of plugin-retry too and retried here, with the same doubling wait as writes: one budget per request,
 *   one clock that tests can shorten.
 */
import { markRedacting, redactRequestParams } from '../safety/redact-outgoing.js';
import { formatFingerprint, parseFingerprint } from '../report/fingerprint.js';
import { type GitHub, isConnectionDropped, listAll, statusOf } from './client.js';
import { anyBot, type IsOurs } from './comments.js';

export type RetryReason = 'secondary-rate-limit' | 'primary-rate-limit' | 'server-error' | 'network-reset';

export interface ResilienceOptions {
  /** Retries of a write answered 5xx or dropped (default 3: 1 + 2 + 4 s). */
  writeRetries?: number;
  /** Retries of a read answered 5xx or dropped (default 3: 1 + 2 + 4 s). */
  readRetries?: number;
  /** First wait before a 5xx or dropped request is retried (default 1 s; doubles). */
  baseDelayMs?: number;
  /** Retries after a rate limit, secondary or primary, per request (default 3). */
  rateLimitRetries?: number;
  /** The longest `retry-after` (seconds) we wait; longer is given up at once (default 60). */
  maxRetryAfterS?: number;
  /** Without retry-after, GitHub says to wait at least a minute; tests shorten this (seconds, default 60). */
  fallbackRetryAfterS?: number;
  /** The longest wait for a primary limit's `x-ratelimit-reset` (seconds, default 60); later is given up at once. */
  maxResetWaitS?: number;
  /** Injected so tests do not wait for real. */
  sleep?: (ms: number) => Promise<void>;
  /** Our clock, for a primary limit answered without a `date` header (tests pin it). */
  now?: () => number;
  /** Which comments are ours, to adopt a create that landed before its 5xx. */
  isOurs?: IsOurs;
  /** Told about each retry (the App logs it). */
  onRetry?: (info: { route: string; status: number | undefined; attempt: number; waitMs: number; reason: RetryReason }) => void;
}

export const WRITE_RETRIES = 3;
export const READ_RETRIES = 3;
export const WRITE_RETRY_BASE_MS = 1_000;
export const RATE_LIMIT_RETRIES = 3;
export const MAX_RETRY_AFTER_S = 60;
export const MAX_RESET_WAIT_S = 60;
/** GitHub's advice when a limit names no time: wait at least a minute. */
export const UNSTATED_WAIT_S = 60;

const realSleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

interface ErrorLike {
  status?: number;
  message?: string;
  response?: { headers?: Record<string, string | undefined>; data?: unknown };
}

const headersOf = (e: unknown): Record<string, string | undefined> => (e as ErrorLike | null)?.response?.headers ?? {};

/** GitHub's secondary (abuse) limit: 403 or 429 with a retry-after or the message, while the primary quota is not spent. */
export function secondaryRetryAfter(e: unknown, fallbackS: number): number | undefined {
  const err = e as ErrorLike | null;
  const status = statusOf(e);
  if (status !== 403 && status !== 429) return undefined;
  const headers = headersOf(e);
  if (headers['x-ratelimit-remaining'] === '0') return undefined;
  const said = /secondary rate limit/i.test(`${err?.message ?? ''} ${JSON.stringify(err?.response?.data ?? '')}`);
  const after = Number(headers['retry-after']);
  if (Number.isFinite(after) && after >= 0 && headers['retry-after'] !== undefined) return after;
  return said || status === 429 ? fallbackS : undefined;
}

/**
 * GitHub's primary limit (the hour's quota is spent): the milliseconds until `x-ratelimit-reset`, plus
 * one second. Measured against the answer's `date` header when it has one, so our clock's skew does not
 * matter; `fallbackMs` when GitHub gave no reset. Undefined for any other error.
 */
export function primaryResetWaitMs(e: unknown, nowMs: number, fallbackMs: number): number | undefined {
  const status = statusOf(e);
  if (status !== 403 && status !== 429) return undefined;
  const headers = headersOf(e);
  if (headers['x-ratelimit-remaining'] !== '0') return undefined;
  const reset = Number(headers['x-ratelimit-reset']);
  if (!headers['x-ratelimit-reset'] || !Number.isFinite(reset)) return fallbackMs;
  const serverNow = Date.parse(headers.date ?? '');
  return Math.max(0, reset * 1000 - (Number.isFinite(serverNow) ? serverNow : nowMs)) + 1000;
}

const isServerError = (e: unknown): boolean => {
  const s = statusOf(e);
  return s !== undefined && s >= 500 && s <= 599;
};

type Params = Record<string, unknown> & { request?: Record<string, unknown> };

interface Policy {
  sleep: (ms: number) => Promise<void>;
  now: () => number;
  writeRetries: number;
  readRetries: number;
  rateRetries: number;
  maxAfterS: number;
  fallbackAfterS: number;
  maxResetWaitMs: number;
  baseMs: number;
}

/** The wait a rate-limited answer asks for; 'give-up' when it is longer than we wait; undefined when `e` is no rate limit. */
function rateLimitWait(e: unknown, policy: Policy): { waitMs: number; reason: RetryReason } | 'give-up' | undefined {
  const after = secondaryRetryAfter(e, policy.fallbackAfterS);
  if (after !== undefined) return after > policy.maxAfterS ? 'give-up' : { waitMs: Math.ceil(after * 1000), reason: 'secondary-rate-limit' };
  const reset = primaryResetWaitMs(e, policy.now(), policy.fallbackAfterS * 1000);
  if (reset !== undefined) return reset > policy.maxResetWaitMs ? 'give-up' : { waitMs: reset, reason: 'primary-rate-limit' };
  return undefined;
}

/**
 * `gh` with the retries above. Only `request` is wrapped (the one method src/github uses), so it fits
 * Probot's Octokit, @octokit/rest and a test client alike.
 */
export function resilient(gh: GitHub, opts: ResilienceOptions = {}): GitHub {
  const policy: Policy = {
    sleep: opts.sleep ?? realSleep,
    now: opts.now ?? Date.now,
    writeRetries: opts.writeRetries ?? WRITE_RETRIES,
    readRetries: opts.readRetries ?? READ_RETRIES,
    rateRetries: opts.rateLimitRetries ?? RATE_LIMIT_RETRIES,
    maxAfterS: opts.maxRetryAfterS ?? MAX_RETRY_AFTER_S,
    fallbackAfterS: opts.fallbackRetryAfterS ?? UNSTATED_WAIT_S,
    maxResetWaitMs: (opts.maxResetWaitS ?? MAX_RESET_WAIT_S) * 1000,
    baseMs: opts.baseDelayMs ?? WRITE_RETRY_BASE_MS,
  };
  const isOurs = opts.isOurs ?? anyBot;

  const request = async (route: string, params: Params = {}): Promise<unknown> => {
    const method = route.split(' ')[0]!.toUpperCase();
    const write = method !== 'GET' && method !== 'HEAD';
    // Every write leaves the process redacted (secretlint's preset + our patterns), whichever caller made it.
    const safe = write ? await redactRequestParams(route, params) : params;
    // Out of plugin-retry, reads and writes: it would repeat a create that may have landed, and its
    // waits grow across requests (above). Our own `request` object also keeps it off the shared one.
    let p: Params = { ...safe, request: { ...safe.request, retries: 0 } };
    let transientRetries = 0;
    let rateRetries = 0;
    for (let attempt = 1; ; attempt++) {
      try {
        return await gh.request(route, p as never);
      } catch (e) {
        const limit = rateLimitWait(e, policy);
        if (limit !== undefined) {
          if (limit === 'give-up' || rateRetries >= policy.rateRetries) throw e;
          rateRetries++;
          opts.onRetry?.({ route, status: statusOf(e), attempt, waitMs: limit.waitMs, reason: limit.reason });
          await policy.sleep(limit.waitMs);
          continue;
        }
        const dropped = isConnectionDropped(e);
        if (!(dropped || isServerError(e)) || transientRetries >= (write ? policy.writeRetries : policy.readRetries)) throw e;
        const waitMs = policy.baseMs * 2 ** transientRetries;
        transientRetries++;
        opts.onRetry?.({ route, status: statusOf(e), attempt, waitMs, reason: dropped ? 'network-reset' : 'server-error' });
        await policy.sleep(waitMs);
        if (route === CHECK_RUN_PATCH && annotationsOf(p).length && (await annotationsLanded(self, p))) {
          // GitHub appends a PATCH's annotations: the update that landed before its 5xx is sent again
          // without them, so the check run does not show each one twice.
          p = { ...p, output: { ...(p.output as object), annotations: [] } };
        }
        if (method === 'POST') {
          // Look before recreating. A lookup that fails even with its own retries throws: sending the
          // create again blind could post the comment twice; the queue's retry of the job finds it instead.
          const got = await landed(self, route, safe, isOurs);
          if (got) return got;
        }
      }
    }
  };
  const self: GitHub = markRedacting({ request: request as unknown as GitHub['request'] });
  return self;
}

const CHECK_RUN_PATCH = 'PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}';

interface AnnotationLike {
  path?: string;
  start_line?: number;
  message?: string;
}

const annotationsOf = (params: Params): AnnotationLike[] => ((params.output as { annotations?: AnnotationLike[] } | undefined)?.annotations ?? []);

/** Whether every annotation of this check-run update is on the check run already (the update landed). */
async function annotationsLanded(gh: GitHub, params: Params): Promise<boolean> {
  const have = await listAll<AnnotationLike>(gh, 'GET /repos/{owner}/{repo}/check-runs/{check_run_id}/annotations', { owner: params.owner, repo: params.repo, check_run_id: params.check_run_id });
  const key = (a: AnnotationLike): string => `${a.path}\0${a.start_line}\0${norm(a.message ?? '')}`;
  const present = new Set(have.map(key));
  return annotationsOf(params).every((a) => present.has(key(a)));
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
 * Whether a create answered 5xx (or dropped) did land after all: the comment with the same fingerprint
 * by us, or the check run with the same external id. Returns a response shaped like the create's, or
 * undefined. `gh` is the resilient client itself, so these reads get the retries above; `params` are
 * the redacted ones GitHub received, so the body compares equal.
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
