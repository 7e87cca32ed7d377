/**
 * Fault injection for the fake GitHub: a rule makes the next N matching API requests answer with an
 * error instead of (or, with `afterEffect`, after) doing their work. Push rules onto `fake.faults`.
 * Faulted requests are still recorded (with the fault's status) and validated like any other.
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
}

/** The first live rule for this request, spent by one; undefined when none matches. */
export function takeFault(rules: FaultRule[], method: string, path: string): FaultRule | undefined {
  const rule = rules.find((r) => (r.times ?? 1) > 0 && r.method === method && (typeof r.path === 'string' ? r.path === path : r.path.test(path)));
  if (rule) rule.times = (rule.times ?? 1) - 1;
  return rule;
}

export function faultReply(rule: FaultRule): Reply {
  return { status: rule.status, body: rule.body ?? { message: `fault ${rule.status}` }, ...(rule.headers ? { headers: rule.headers } : {}) };
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
