/**
 * History through the Action (issue 15), mode 1 (the failed jobs of this run through the API): the
 * bundled Action finds the last green run of the same job and the base branch's latest run on the local
 * GitHub, and every output says the failure's status in one line. Needs dist/action (npm run build:action).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FIXTURE, HEAD_SHA, REPO, prFiles, startActionHarness, type ActionHarness } from './harness.js';

const FAILING = readFileSync(join(FIXTURE, 'log.txt'), 'utf8');
const PASSING = readFileSync(join(FIXTURE, 'passing.log'), 'utf8');
const BASE_SHA = 'ba5e'.padEnd(40, '0');
const daysAgo = (d: number) => new Date(Date.now() - d * 86_400_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
/** The runner's own variables for this run: its attempt and the workflow file (the runs list's workflow id). */
const RUN_ENV = { GITHUB_EVENT_NAME: 'pull_request', GITHUB_RUN_ATTEMPT: '1', GITHUB_WORKFLOW_REF: `${REPO}/.github/workflows/ci.yml@refs/pull/7/merge`, GITHUB_HEAD_REF: 'currency' };

let h: ActionHarness;
beforeEach(async () => {
  h = await startActionHarness();
  h.fake.addPull(REPO, { number: 7, head: { ref: 'currency', sha: HEAD_SHA }, base: { ref: 'main', sha: BASE_SHA }, files: prFiles() });
  h.fake.addJob(REPO, { id: 501, run_id: 900, name: 'typecheck', workflow_name: 'CI', head_sha: HEAD_SHA, head_branch: 'currency', started_at: daysAgo(0), log: FAILING });
});
afterEach(async () => {
  await h.close();
});

function onMain(runId: number, conclusion: 'success' | 'failure', days = 1) {
  h.fake.addJob(REPO, { id: runId * 10, run_id: runId, name: 'typecheck', workflow_name: 'CI', head_sha: BASE_SHA, head_branch: 'main', event: 'push', conclusion, started_at: daysAgo(days), log: conclusion === 'success' ? PASSING : FAILING });
}

describe('history through the Action (mode 1)', () => {
  it('base green: pinned as today, "new" with the green run in the comment and the job summary', async () => {
    onMain(800, 'success');
    const res = await h.run({ ...RUN_ENV, GITHUB_EVENT_PATH: h.event() });
    expect(res.code, res.stderr).toBe(0);
    expect(h.fake.violations).toEqual([]);
    const repo = h.fake.repo(REPO);
    expect(repo.reviewComments).toMatchObject([{ path: 'src/receipt.ts', line: 15 }]);
    expect(repo.reviewComments[0]!.body).toMatch(/\*\*History:\*\* new: the job passed in its last green \[run #800\]/);
    expect(res.summary).toMatch(/\*\*History:\*\* new: .*2 lines of the failing step are new against the passing log/);
    // The workflow came from GITHUB_WORKFLOW_REF: the runs list was asked by file name, the run itself never.
    expect(h.fake.requestsTo('GET', `/repos/${REPO}/actions/workflows/ci.yml/runs`).length).toBeGreaterThan(0);
    expect(h.fake.requestsTo('GET', `/repos/${REPO}/actions/runs/900`)).toHaveLength(0);
  });

  it('base red with the same failure: pre-existing in the comment, the check run title and the job summary', async () => {
    onMain(800, 'success', 3);
    onMain(810, 'failure');
    const res = await h.run({ ...RUN_ENV, GITHUB_EVENT_PATH: h.event() });
    expect(res.code, res.stderr).toBe(0);
    expect(h.fake.violations).toEqual([]);
    const repo = h.fake.repo(REPO);
    const body = [...repo.reviewComments, ...repo.issueComments].map((c) => c.body).join('\n');
    expect(body).toMatch(/pre-existing: also failing on `main` since `ba5e000`, \[run #810\]/);
    expect(repo.checkRuns.find((c) => c.name === 'Redline')!.output.title).toMatch(/^pre-existing: /);
    expect(res.summary).toMatch(/pre-existing: also failing on `main`/);
    expect(res.stdout).toMatch(/Redline \(CI \/ typecheck\): pre-existing: /);
  });
});
