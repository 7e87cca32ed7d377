/**
 * Fault injection for the fake GitHub, two ways:
 * - rules: the next N matching API requests answer with an error instead of (or, with `afterEffect`,
 *   after) doing their work; `expiredLogLink` does the same for job-log downloads on the blob host.
 *   Push them onto `fake.faults`; they come first.
 * - a mix (`fake.setFaultMix`): every eligible request draws a fault at the given rates from a seeded
 *   PRNG, so a failing run can be replayed with its seed; `fake.faultCounts` says what was injected.
 * Faulted requests are still recorded (with the fault's status; a reset as status 0) and validated
 * like any other. The App's own credentials (App JWT routes, installation tokens) are never faulted.
 */
import type { Reply } from './routes.js';

export interface FaultRule {
  method: string;
  /** The API path without `/api/v3` and the query: exact string, or a RegExp tested against it. */
  path: string | RegExp;
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** How many matching requests fail; default 1. Decremented as they do; spent rules stay (times 0). */
  times?: number;
  /**
   * true: the request is carried out (its state change lands) and only then answered with the fault,
   * like a 502 from GitHub's edge after the write was stored. Default false: nothing happens.
   */
  afterEffect?: boolean;
  /** Sets `x-ratelimit-reset` this many seconds after the moment of the answer (a primary limit). */
  resetInS?: number;
  /** No answer at all: the connection is destroyed (`status` is then ignored). */
  reset?: boolean;
}

/** The first live rule for this request, spent by one; undefined when none matches. */
export function takeFault(rules: FaultRule[], method: string, path: string): FaultRule | undefined {
  const rule = rules.find((r) => (r.times ?? 1) > 0 && r.method === method && (typeof r.path === 'string' ? r.path === path : r.path.test(path)));
  if (rule) rule.times = (rule.times ?? 1) - 1;
  return rule;
}

export function faultReply(rule: FaultRule, nowMs = Date.now()): Reply {
  const headers: Record<string, string> = { ...rule.headers };
  if (rule.resetInS !== undefined) {
    headers['x-ratelimit-reset'] = String(Math.ceil(nowMs / 1000) + rule.resetInS);
    // From the same clock reading as the reset: Node's own `date` header is cached and can lag a second
    // behind on a busy event loop, which made the client's wait (reset − date) a second too long.
    headers.date = new Date(nowMs).toUTCString();
  }
  return { status: rule.status, body: rule.body ?? { message: `fault ${rule.status}` }, ...(Object.keys(headers).length ? { headers } : {}) };
}

/** The connection dropped without an answer (the client sees ECONNRESET / "other side closed"). */
export function networkReset(method: string, path: string | RegExp, opts: { times?: number; afterEffect?: boolean } = {}): FaultRule {
  return { method, path, status: 0, reset: true, times: opts.times ?? 1, afterEffect: opts.afterEffect ?? false };
}

/**
 * A job-log download link refused as expired by the blob host (403 AuthenticationFailed, as Azure
 * storage answers a SAS past its expiry), or with `reset` dropped without an answer. Matches the log
 * paths of the blob host only.
 */
export function expiredLogLink(opts: { times?: number; reset?: boolean } = {}): FaultRule {
  return { method: 'GET', path: /^\/_blob\/job-logs\//, status: 403, times: opts.times ?? 1, ...(opts.reset ? { reset: true } : {}) };
}

/** GitHub's 502 from its edge (HTML body in real life; JSON here, which Octokit reads the same way). */
export function serverError(method: string, path: string | RegExp, opts: { status?: number; times?: number; afterEffect?: boolean } = {}): FaultRule {
  const status = opts.status ?? 502;
  return { method, path, status, times: opts.times ?? 1, afterEffect: opts.afterEffect ?? false, body: { message: status === 502 ? 'Server Error' : 'Service Unavailable' } };
}

/** A secondary rate limit as GitHub sends it: 403, `retry-after`, the message, primary quota left. */
export function secondaryRateLimit(method: string, path: string | RegExp, opts: { retryAfter?: number; times?: number; status?: 403 | 429 } = {}): FaultRule {
  return {
    method,
    path,
    status: opts.status ?? 403,
    times: opts.times ?? 1,
    headers: { ...(opts.retryAfter !== undefined ? { 'retry-after': String(opts.retryAfter) } : {}), 'x-ratelimit-remaining': '4990' },
    body: {
      message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID 0000:0000:0000000:0000000:00000000.',
      documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits',
      status: String(opts.status ?? 403),
    },
  };
}

// ------------------------------------------------------------------------------------------------------
// Seeded random faults: a rate per kind, the same faults on the same requests for the same seed.

/** What can go wrong, as GitHub and its blob host show it. */
export type FaultKind =
  /** 502 before the request did anything. */
  | 'serverError'
  /** A write that landed, answered 502 (writes only). */
  | 'serverErrorAfterEffect'
  /** 403 secondary limit with `retry-after: 1`. */
  | 'secondaryRateLimit'
  /** 403 secondary limit without `retry-after` (GitHub then means "a minute"). */
  | 'secondaryNoRetryAfter'
  /** 403 with `x-ratelimit-remaining: 0` and `x-ratelimit-reset` a second or two ahead. */
  | 'primaryRateLimit'
  /** The socket is destroyed without an answer (API and log host). */
  | 'networkReset'
  /** A write that landed, then the socket is destroyed without an answer (writes only). */
  | 'networkResetAfterEffect'
  /** The signed log URL answers as an expired one does (log host only). */
  | 'logLinkExpired';

export const FAULT_KINDS: readonly FaultKind[] = ['serverError', 'serverErrorAfterEffect', 'secondaryRateLimit', 'secondaryNoRetryAfter', 'primaryRateLimit', 'networkReset', 'networkResetAfterEffect', 'logLinkExpired'];

export interface FaultMix {
  seed: number;
  /**
   * Chance (0..1) that a request gets this fault, for the requests it applies to (ELIGIBLE below): the
   * kinds of one request share one draw, so their rates add up (keep each target's sum at most 1).
   */
  rates: Partial<Record<FaultKind, number>>;
}

/** Where a request goes, which decides the kinds it can get. */
export type FaultTarget = 'api-read' | 'api-write' | 'log-blob';

const ELIGIBLE: Record<FaultTarget, readonly FaultKind[]> = {
  'api-read': ['serverError', 'secondaryRateLimit', 'secondaryNoRetryAfter', 'primaryRateLimit', 'networkReset'],
  'api-write': ['serverError', 'serverErrorAfterEffect', 'secondaryRateLimit', 'secondaryNoRetryAfter', 'primaryRateLimit', 'networkReset', 'networkResetAfterEffect'],
  'log-blob': ['networkReset', 'logLinkExpired'],
};

/** mulberry32: a tiny seeded PRNG with good enough spread for picking faults. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a: a request's name as a 32-bit number, to seed its own draw. */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * Decides the fault of each request from the seed and the request's name (method, host, path and how
 * many times that was asked for before), not from the order requests arrive in: jobs run concurrently,
 * and a shared random stream would hand the faults to different requests on every run.
 */
export class FaultDice {
  readonly counts = Object.fromEntries(FAULT_KINDS.map((k) => [k, 0])) as Record<FaultKind, number>;
  private readonly seen = new Map<string, number>();

  constructor(private readonly mix: FaultMix) {}

  roll(target: FaultTarget, name: string): FaultKind | undefined {
    const n = (this.seen.get(name) ?? 0) + 1;
    this.seen.set(name, n);
    let u = mulberry32(fnv1a(`${this.mix.seed}:${name}#${n}`))();
    for (const kind of ELIGIBLE[target]) {
      u -= this.mix.rates[kind] ?? 0;
      if (u < 0) {
        this.counts[kind]++;
        return kind;
      }
    }
    return undefined;
  }
}

/** The API's answer for a drawn fault (the rule helpers' bodies and headers); undefined for resets, which are no answer. */
export function mixReply(kind: FaultKind): Reply | undefined {
  const any = /./;
  switch (kind) {
    case 'serverError':
    case 'serverErrorAfterEffect':
      return faultReply(serverError('*', any));
    case 'secondaryRateLimit':
      return faultReply(secondaryRateLimit('*', any, { retryAfter: 1 }));
    case 'secondaryNoRetryAfter':
      return faultReply(secondaryRateLimit('*', any));
    case 'primaryRateLimit':
      return faultReply(primaryRateLimit('*', any, { resetInS: 1 }));
    default:
      return undefined;
  }
}

/**
 * A primary rate limit as GitHub sends it: 403, the quota spent (`x-ratelimit-remaining: 0`) and when it
 * comes back (`x-ratelimit-reset`, epoch seconds), no `retry-after`.
 */
export function primaryRateLimit(method: string, path: string | RegExp, opts: { resetInS?: number; times?: number } = {}): FaultRule {
  return {
    method,
    path,
    status: 403,
    times: opts.times ?? 1,
    resetInS: opts.resetInS ?? 1,
    headers: { 'x-ratelimit-limit': '5000', 'x-ratelimit-remaining': '0', 'x-ratelimit-used': '5000', 'x-ratelimit-resource': 'core' },
    body: {
      message: 'API rate limit exceeded for installation ID 1.',
      documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-the-primary-rate-limit',
      status: '403',
    },
  };
}
