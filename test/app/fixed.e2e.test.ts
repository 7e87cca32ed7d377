/** "Job passes later": Redline's comment for a job is edited to say it is fixed (local GitHub, Probot for real). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseFingerprint } from '../../src/report/fingerprint.js';
import { deliver } from '../helpers/fake-github/index.js';
import { RECEIPT_EDIT, FIXTURE, HEAD_SHA, REPO, SECRET, patchFiles, startHarness, workflowJobPayload, type Harness } from './e2e-helpers.js';

const LOG = readFileSync(join(FIXTURE, 'log.txt'), 'utf8');
const NEXT_SHA = 'beef'.padEnd(40, '2');

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

async function deliverJob(job: { id: number; name: string; workflow_name: string; conclusion?: string | null }, sha = HEAD_SHA) {
  const p = workflowJobPayload(h.fake, job) as { workflow_job: { head_sha: string } };
  p.workflow_job.head_sha = sha;
  await deliver(h.webhookUrl, 'workflow_job', p, SECRET);
  await h.queue.idle();
}

/** The failure on HEAD_SHA (one review comment), then the PR moves on to NEXT_SHA. */
async function failThenPush(files = [...patchFiles(), RECEIPT_EDIT]) {
  const pr = h.fake.addPull(REPO, { number: 7, head: { ref: 'currency', sha: HEAD_SHA }, files });
  await deliverJob(h.fake.addJob(REPO, { id: 501, name: 'typecheck', workflow_name: 'CI', head_sha: HEAD_SHA, log: LOG }));
  pr.head.sha = NEXT_SHA;
  return pr;
}

const passed = (id: number, name = 'typecheck') => ({ ...h.fake.addJob(REPO, { id, name, workflow_name: 'CI', head_sha: NEXT_SHA, conclusion: 'success' }), conclusion: 'success' });

describe('a job Redline commented on passes later', () => {
  it('its review comment is edited to say fixed in <sha>, keeping the fingerprint; a second pass edits nothing', async () => {
    await failThenPush();
    const repo = h.fake.repo(REPO);
    const before = repo.reviewComments[0]!.body;
    const fp = parseFingerprint(before);
    expect(fp).toBeDefined();

    await deliverJob(passed(601), NEXT_SHA);
    expect(h.fake.violations).toEqual([]);
    expect(repo.reviewComments).toHaveLength(1);
    const after = repo.reviewComments[0]!.body;
    expect(after).toContain(`Fixed in [\`${NEXT_SHA.slice(0, 7)}\`](https://github.com/${REPO}/commit/${NEXT_SHA})`);
    expect(after).toContain('`CI / typecheck` passed there');
    expect(parseFingerprint(after)).toEqual(fp);
    // The earlier diagnosis is kept, folded.
    expect(after).toContain('<details><summary>The earlier failure</summary>');
    expect(after).toContain('src/receipt.ts');
    expect(h.fake.requestsTo('PATCH', /\/pulls\/comments\/\d+$/)).toHaveLength(1);

    await deliverJob(passed(602), NEXT_SHA);
    expect(h.fake.requestsTo('PATCH', /\/pulls\/comments\/\d+$/)).toHaveLength(1);
    expect(repo.issueComments).toHaveLength(0);
  });

  it('the PR conversation comment (tier 3) is marked the same way', async () => {
    await failThenPush(patchFiles());
    const repo = h.fake.repo(REPO);
    expect(repo.issueComments).toHaveLength(1);
    await deliverJob(passed(601), NEXT_SHA);
    expect(repo.issueComments[0]!.body).toMatch(/Fixed in/);
    expect(parseFingerprint(repo.issueComments[0]!.body)).toBeDefined();
  });

  it('another job passing, or a job that never failed, touches nothing', async () => {
    await failThenPush();
    await deliverJob(passed(601, 'lint'), NEXT_SHA);
    expect(h.fake.requests.filter((r) => r.method === 'PATCH')).toHaveLength(0);
    expect(h.fake.repo(REPO).reviewComments[0]!.body).not.toMatch(/Fixed in/);
  });

  it('an outdated review comment that someone replied to is left as it is', async () => {
    await failThenPush();
    const repo = h.fake.repo(REPO);
    const ours = repo.reviewComments[0]!;
    // The line left the diff (GitHub: line and position null) and a person answered in the thread.
    Object.assign(ours, { line: null, position: null });
    repo.reviewComments.push({ ...ours, id: 90_001, user: 'octocat', body: 'I think this is intended?', in_reply_to_id: ours.id });
    const before = ours.body;
    await deliverJob(passed(601), NEXT_SHA);
    expect(h.fake.violations).toEqual([]);
    expect(ours.body).toBe(before);
    expect(h.fake.requests.filter((r) => r.method === 'PATCH')).toHaveLength(0);
  });

  it('an outdated review comment without replies is marked fixed', async () => {
    await failThenPush();
    const ours = h.fake.repo(REPO).reviewComments[0]!;
    Object.assign(ours, { line: null, position: null });
    await deliverJob(passed(601), NEXT_SHA);
    expect(ours.body).toMatch(/Fixed in/);
  });

  it('a failure after the fix rewrites the same comment', async () => {
    await failThenPush();
    await deliverJob(passed(601), NEXT_SHA);
    const pr = h.fake.repo(REPO).pulls[7]!;
    pr.head.sha = HEAD_SHA;
    await deliverJob(h.fake.addJob(REPO, { id: 502, name: 'typecheck', workflow_name: 'CI', head_sha: HEAD_SHA, log: LOG }));
    const repo = h.fake.repo(REPO);
    expect(repo.reviewComments).toHaveLength(1);
    expect(repo.reviewComments[0]!.body).not.toMatch(/Fixed in/);
    expect(repo.reviewComments[0]!.body).toContain('/job/502');
  });
});
