/** Faults on the way to GitHub: 5xx on our writes and secondary rate limits (local GitHub, Probot for real). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deliver, secondaryRateLimit, serverError } from '../helpers/fake-github/index.js';
import { RECEIPT_EDIT, FIXTURE, HEAD_SHA, REPO, SECRET, patchFiles, startHarness, workflowJobPayload, type Harness } from './e2e-helpers.js';

const LOG = readFileSync(join(FIXTURE, 'log.txt'), 'utf8');
const REVIEWS = `/repos/${REPO}/pulls/7/reviews`;

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

async function run() {
  h.fake.addPull(REPO, { number: 7, head: { ref: 'currency', sha: HEAD_SHA }, files: [...patchFiles(), RECEIPT_EDIT] });
  const job = h.fake.addJob(REPO, { id: 501, name: 'typecheck', workflow_name: 'CI', head_sha: HEAD_SHA, log: LOG });
  const t0 = performance.now();
  await deliver(h.webhookUrl, 'workflow_job', workflowJobPayload(h.fake, job), SECRET);
  await h.queue.idle();
  return performance.now() - t0;
}

const statuses = (method: string, path: string | RegExp) => h.fake.requestsTo(method, path).map((r) => r.status);

describe('faults on our writes', () => {
  it('a 502 then success on the review POST → retried, exactly one comment', async () => {
    h.fake.faults.push(serverError('POST', REVIEWS));
    await run();
    const repo = h.fake.repo(REPO);
    expect(h.fake.violations).toEqual([]);
    expect(statuses('POST', REVIEWS)).toEqual([502, 200]);
    expect(repo.reviewComments).toHaveLength(1);
    expect(repo.reviews).toHaveLength(1);
    expect(repo.checkRuns.filter((c) => c.name === 'Redline')).toHaveLength(1);
  });

  it('a 502 that came after GitHub stored the review → found by its fingerprint, not posted twice', async () => {
    h.fake.faults.push(serverError('POST', REVIEWS, { afterEffect: true }));
    await run();
    const repo = h.fake.repo(REPO);
    expect(statuses('POST', REVIEWS)).toEqual([502]);
    expect(repo.reviewComments).toHaveLength(1);
    expect(repo.issueComments).toHaveLength(0);
    expect(repo.checkRuns.filter((c) => c.name === 'Redline')).toHaveLength(1);
  });

  it('a 503 on the check-run POST is retried; one check run', async () => {
    h.fake.faults.push(serverError('POST', `/repos/${REPO}/check-runs`, { status: 503 }));
    await run();
    expect(statuses('POST', `/repos/${REPO}/check-runs`)).toEqual([503, 201]);
    expect(h.fake.repo(REPO).checkRuns.filter((c) => c.name === 'Redline')).toHaveLength(1);
  });

  it('a secondary rate limit with retry-after: 1 → retried after it, one comment', async () => {
    h.fake.faults.push(secondaryRateLimit('POST', REVIEWS, { retryAfter: 1 }));
    await run();
    const posts = h.fake.requestsTo('POST', REVIEWS);
    expect(posts.map((r) => r.status)).toEqual([403, 200]);
    expect(h.fake.repo(REPO).reviewComments).toHaveLength(1);
    const i = h.fake.requests.indexOf(posts[0]!);
    const j = h.fake.requests.indexOf(posts[1]!);
    expect(j).toBeGreaterThan(i);
  });

  it('a secondary rate limit on a read (429) is retried too', async () => {
    h.fake.faults.push(secondaryRateLimit('GET', `/repos/${REPO}/pulls/7/files`, { retryAfter: 1, status: 429 }));
    await run();
    expect(statuses('GET', `/repos/${REPO}/pulls/7/files`)[0]).toBe(429);
    expect(h.fake.repo(REPO).reviewComments).toHaveLength(1);
  });

  it('a retry-after longer than a job waits is not waited for in the job: it gives up at once and the queue retries it no sooner than GitHub asked', async () => {
    h.fake.faults.push(secondaryRateLimit('POST', REVIEWS, { retryAfter: 3600 }));
    h.fake.addPull(REPO, { number: 7, head: { ref: 'currency', sha: HEAD_SHA }, files: [...patchFiles(), RECEIPT_EDIT] });
    const job = h.fake.addJob(REPO, { id: 501, name: 'typecheck', workflow_name: 'CI', head_sha: HEAD_SHA, log: LOG });
    const t0 = performance.now();
    await deliver(h.webhookUrl, 'workflow_job', workflowJobPayload(h.fake, job), SECRET);
    while (statuses('POST', REVIEWS).length === 0 || (await h.queue.counts()).running > 0) await new Promise((r) => setTimeout(r, 20));
    expect(performance.now() - t0).toBeLessThan(5_000);
    await new Promise((r) => setTimeout(r, 500)); // the queue's own backoff in these tests is 20 ms: the hour wins
    expect(statuses('POST', REVIEWS)).toEqual([403]);
    expect(h.fake.repo(REPO).reviewComments).toHaveLength(0);
    expect(await h.queue.counts()).toEqual({ waiting: 1, running: 0, dead: 0 });
    await h.queue.close(); // the job stays in the queue for its hour; the harness does not wait for it
  });
});
