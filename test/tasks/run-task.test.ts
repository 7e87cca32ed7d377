/** runTask hands the queue GitHub's own wait when a job gives up on a rate limit (the queue retries no sooner). */
import { RequestError } from '@octokit/request-error';
import { describe, expect, it } from 'vitest';
import { backoffMs } from '../../src/queue/queue.js';
import { runTask, type TaskDeps } from '../../src/tasks/run-task.js';
import type { Task } from '../../src/tasks/task.js';

const task: Task = {
  kind: 'command',
  delivery: 'd1',
  repo: 'o/r',
  ref: { owner: 'o', repo: 'r' },
  repoUrl: 'https://github.com/o/r',
  pr: 1,
  commentId: 2,
  login: 'octocat',
  command: { name: 'help' },
};

function depsAnswering(error: RequestError): TaskDeps {
  return {
    auth: async () => ({ request: (async () => { throw error; }) as never }),
    cacheDir: '/nonexistent',
    isOurs: async () => () => false,
    enqueue: async () => true,
    resilience: { rateLimitRetries: 0, maxRetryAfterS: 1, maxResetWaitS: 1, sleep: async () => {} },
    log: () => {},
  } as TaskDeps;
}

const limited = (headers: Record<string, string>, message: string): RequestError =>
  new RequestError(message, 403, { request: { method: 'GET', url: 'https://api.github.com/x', headers: {} }, response: { status: 403, url: 'https://api.github.com/x', headers, data: { message } } });

describe('runTask: rate limits the job did not wait out', () => {
  it('a secondary limit with retry-after: 3600 → the error carries retryAfterMs and the queue waits the hour', async () => {
    const err = await runTask(task, depsAnswering(limited({ 'retry-after': '3600', 'x-ratelimit-remaining': '4000' }, 'You have exceeded a secondary rate limit'))).catch((e: unknown) => e);
    expect((err as { retryAfterMs?: number }).retryAfterMs).toBe(3_600_000);
    expect(backoffMs(30_000, 1, err)).toBe(3_600_000);
  });

  it('a spent primary quota → the wait until x-ratelimit-reset (by GitHub\'s date header)', async () => {
    const now = Date.now();
    const err = await runTask(task, depsAnswering(limited({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Math.floor(now / 1000) + 600), date: new Date(now).toUTCString() }, 'API rate limit exceeded'))).catch((e: unknown) => e);
    const ms = (err as { retryAfterMs?: number }).retryAfterMs!;
    expect(ms).toBeGreaterThan(595_000);
    expect(ms).toBeLessThan(603_000);
  });

  it('any other error: no hint, the normal backoff', async () => {
    const err = new RequestError('Not Found', 404, { request: { method: 'GET', url: 'https://api.github.com/x', headers: {} }, response: { status: 404, url: 'https://api.github.com/x', headers: {}, data: {} } });
    const got = await runTask(task, depsAnswering(err)).catch((e: unknown) => e);
    expect((got as { retryAfterMs?: number }).retryAfterMs).toBeUndefined();
    expect(backoffMs(30_000, 2, got)).toBe(120_000);
  });
});
