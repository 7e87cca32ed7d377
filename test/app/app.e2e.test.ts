import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseFingerprint } from '../../src/report/fingerprint.js';
import { deliver } from '../helpers/fake-github/index.js';
import { RECEIPT_EDIT, FIXTURE, HEAD_SHA, REPO, SECRET, patchFiles, startHarness, workflowJobPayload, type Harness } from './e2e-helpers.js';

const LOG = readFileSync(join(FIXTURE, 'log.txt'), 'utf8');


let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

function seed(opts: { files?: typeof RECEIPT_EDIT[]; notFoundTimes?: number } = {}) {
  h.fake.addPull(REPO, { number: 7, head: { ref: 'currency', sha: HEAD_SHA }, files: [...patchFiles(), ...(opts.files ?? [])] });
  return h.fake.addJob(REPO, { id: 501, name: 'typecheck', workflow_name: 'CI', head_sha: HEAD_SHA, log: { text: LOG, ...(opts.notFoundTimes ? { notFoundTimes: opts.notFoundTimes } : {}) } });
}

async function deliverJob(job: { id: number; name: string; workflow_name: string }, id?: string) {
  const t0 = performance.now();
  const res = await deliver(h.webhookUrl, 'workflow_job', workflowJobPayload(h.fake, job), SECRET, id ? { id } : {});
  const answeredMs = performance.now() - t0;
  await h.queue.idle();
  return { ...res, answeredMs };
}

describe('GitHub App end to end (local GitHub, Probot started for real)', () => {
  it('failing tsc job on a diff line → exactly one review comment on that line, and a neutral Redline check run', async () => {
    const job = seed({ files: [RECEIPT_EDIT] });
    const res = await deliverJob(job);
    expect(res.status).toBe(200);
    // The webhook is answered before the diagnosis runs (GitHub gives a delivery 10 s).
    expect(res.answeredMs).toBeLessThan(1000);
    const repo = h.fake.repo(REPO);
    expect(h.fake.violations).toEqual([]);
    expect(repo.reviewComments).toHaveLength(1);
    expect(repo.reviewComments[0]).toMatchObject({ path: 'src/receipt.ts', line: 15, side: 'RIGHT', user: 'redline[bot]' });
    expect(parseFingerprint(repo.reviewComments[0]!.body)).toBeDefined();
    expect(repo.issueComments).toHaveLength(0);
    expect(repo.checkRuns.filter((c) => c.name === 'Redline')).toMatchObject([{ conclusion: 'neutral', head_sha: HEAD_SHA, annotations: [] }]);
    // The log was fetched from the redirect target without our token.
    expect(h.fake.requests.filter((r) => r.host === 'blob').every((r) => !r.headers.authorization)).toBe(true);
  });

  it('line outside the diff → a check-run annotation and one PR comment with a permalink at the head SHA', async () => {
    const job = seed();
    await deliverJob(job);
    const repo = h.fake.repo(REPO);
    expect(h.fake.violations).toEqual([]);
    expect(repo.reviewComments).toHaveLength(0);
    expect(repo.issueComments).toHaveLength(1);
    expect(repo.issueComments[0]!.body).toContain(`https://github.com/${REPO}/blob/${HEAD_SHA}/src/receipt.ts#L15`);
    const check = repo.checkRuns.find((c) => c.name === 'Redline')!;
    expect(check.annotations).toMatchObject([{ path: 'src/receipt.ts', start_line: 15, end_line: 15 }]);
  });

  it('a re-run of the same failure (new job id, new delivery) edits the same comment instead of adding one', async () => {
    const job = seed({ files: [RECEIPT_EDIT] });
    await deliverJob(job);
    const rerun = h.fake.addJob(REPO, { id: 502, name: 'typecheck', workflow_name: 'CI', head_sha: HEAD_SHA, run_attempt: 2, log: LOG });
    await deliverJob(rerun);
    const repo = h.fake.repo(REPO);
    expect(h.fake.violations).toEqual([]);
    expect(repo.reviewComments).toHaveLength(1);
    expect(repo.reviewComments[0]!.body).toContain('/job/502');
    expect(h.fake.requestsTo('PATCH', /\/pulls\/comments\/\d+$/)).toHaveLength(1);
    expect(repo.checkRuns.filter((c) => c.name === 'Redline')).toHaveLength(1);
  });

  it('a duplicate delivery id does nothing new', async () => {
    const job = seed({ files: [RECEIPT_EDIT] });
    const first = await deliverJob(job);
    const before = h.fake.requests.length;
    const again = await deliverJob(job, first.id);
    expect(again.status).toBe(200);
    expect(h.fake.requests.length).toBe(before);
    expect(h.fake.repo(REPO).reviewComments).toHaveLength(1);
  });

  // Issue 5 says 401; @octokit/webhooks 14 (inside Probot 14) answers 400 "signature does not match
  // event payload and secret". What matters is that nothing runs; the status is the library's.
  it('a bad signature is refused (400 from @octokit/webhooks) and nothing runs', async () => {
    const job = seed();
    const res = await deliver(h.webhookUrl, 'workflow_job', workflowJobPayload(h.fake, job), SECRET, { tamper: true });
    await h.queue.idle();
    expect(res.status).toBe(400);
    expect(res.body).toMatch(/signature does not match/);
    expect(h.fake.requests).toHaveLength(0);
    const unsigned = await deliver(h.webhookUrl, 'workflow_job', workflowJobPayload(h.fake, job), SECRET, { unsigned: true });
    await h.queue.idle();
    expect(unsigned.status).toBe(400);
    expect(h.fake.requests).toHaveLength(0);
  });

  it('a log that answers 404 while the job finishes is retried', async () => {
    const job = seed({ files: [RECEIPT_EDIT], notFoundTimes: 2 });
    await deliverJob(job);
    expect(h.fake.requestsTo('GET', `/repos/${REPO}/actions/jobs/501/logs`).map((r) => r.status)).toEqual([404, 404, 302]);
    expect(h.fake.repo(REPO).reviewComments).toHaveLength(1);
  });

  it('a log that is gone (410) is said once in the Redline check run, with no PR comment', async () => {
    seed();
    const job = h.fake.addJob(REPO, { id: 520, name: 'typecheck', workflow_name: 'CI', head_sha: HEAD_SHA, log: { text: LOG, gone: true } });
    await deliverJob(job);
    const repo = h.fake.repo(REPO);
    expect(repo.reviewComments.length + repo.issueComments.length).toBe(0);
    const check = repo.checkRuns.find((c) => c.name === 'Redline')!;
    expect(check).toMatchObject({ conclusion: 'neutral', output: { title: 'log unavailable: nothing to diagnose' } });
    expect(check.output.summary).toMatch(/HTTP 410/);
  });

  it('finds a fork PR by its head SHA (workflow_job carries no PR)', async () => {
    h.fake.addRepo('forker/invoicer', { fork_of: REPO, installation: false });
    h.fake.addPull(REPO, { number: 9, head: { ref: 'currency', sha: HEAD_SHA, repo: 'forker/invoicer' }, files: [...patchFiles(), RECEIPT_EDIT] });
    const job = h.fake.addJob(REPO, { id: 601, name: 'typecheck', workflow_name: 'CI', head_sha: HEAD_SHA, log: LOG });
    await deliverJob(job);
    expect(h.fake.violations).toEqual([]);
    expect(h.fake.repo(REPO).reviewComments).toMatchObject([{ pull_number: 9, path: 'src/receipt.ts', line: 15 }]);
  });

  it('posts nothing for a commit without an open PR', async () => {
    const job = h.fake.addJob(REPO, { id: 701, name: 'typecheck', workflow_name: 'CI', head_sha: HEAD_SHA, log: LOG });
    await deliverJob(job);
    const repo = h.fake.repo(REPO);
    expect(repo.reviewComments.length + repo.issueComments.length + repo.checkRuns.length).toBe(0);
    expect(h.fake.requestsTo('GET', /\/logs$/)).toHaveLength(0);
  });

  it('ignores cancelled jobs and bots\u2019 runs', async () => {
    const job = seed();
    await deliver(h.webhookUrl, 'workflow_job', workflowJobPayload(h.fake, { ...job, conclusion: 'cancelled' }), SECRET);
    const bot = workflowJobPayload(h.fake, job) as { sender: { type: string; login: string } };
    bot.sender = { ...bot.sender, type: 'Bot', login: 'dependabot[bot]' };
    await deliver(h.webhookUrl, 'workflow_job', bot, SECRET);
    await h.queue.idle();
    expect(h.fake.requests).toHaveLength(0);
  });
});
