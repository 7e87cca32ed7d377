/**
 * History through the Action (issue 15), mode 1 (the failed jobs of this run through the API): the
 * bundled Action finds the last green run of the same job and the base branch's latest run on the local
 * GitHub, and every output says the failure's status in one line. Needs dist/action (npm run build:action).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FIXTURE, HEAD_SHA, REPO, ROOT, prFiles, startActionHarness, type ActionHarness } from './harness.js';
import { bigPassingLog } from '../helpers/big-passing-log.js';
import type { FakeLog } from '../helpers/fake-github/index.js';
import { TRIGGERING_RUN, seedWorkflowRun, workflowRunEnv, workflowRunEvent } from './workflow-run-fixture.js';

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

function onMain(runId: number, conclusion: 'success' | 'failure', days = 1, opts: { sha?: string; log?: string | FakeLog } = {}) {
  h.fake.addJob(REPO, { id: runId * 10, run_id: runId, name: 'typecheck', workflow_name: 'CI', head_sha: opts.sha ?? BASE_SHA, head_branch: 'main', event: 'push', conclusion, started_at: daysAgo(days), log: opts.log ?? (conclusion === 'success' ? PASSING : FAILING) });
}
const OLD_SHA = '01d0'.padEnd(40, '0');
/** Real failing/passing logs of two other jobs (fixtures/history-pairs: BugSwarm's pairs of public projects). */
const PAIR = (name: string, side: 'failed' | 'passed') => readFileSync(join(ROOT, 'fixtures/history-pairs', name, `${side}.log`), 'utf8');
const bodies = () => {
  const repo = h.fake.repo(REPO);
  return [...repo.reviewComments, ...repo.issueComments].map((c) => c.body).join('\n');
};
/**
 * API requests the history spent (runs, jobs lists, compare, job-log links but the failing job's own);
 * in mode 1 the run's own jobs list (without `filter=all`) is the Action's, not the history's.
 */
const historyRequests = (mode1 = true) =>
  h.fake.requests.filter((r) => r.host !== 'blob' && /\/actions\/(?:runs|workflows)\/|\/compare\/|\/actions\/jobs\/(?!501\/)\d+\/logs/.test(r.path) && !(mode1 && r.path === `/repos/${REPO}/actions/runs/900/jobs` && r.query.filter !== 'all')).length;

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

  it('a re-run of the same SHA passed on attempt 1: flaky on attempt 2, re-run suggested, no diff blame', async () => {
    onMain(800, 'success');
    h.fake.repo(REPO).jobs[501]!.run_attempt = 2;
    h.fake.addJob(REPO, { id: 499, run_id: 900, run_attempt: 1, name: 'typecheck', workflow_name: 'CI', head_sha: HEAD_SHA, head_branch: 'currency', conclusion: 'success', started_at: daysAgo(0), log: PASSING });
    const res = await h.run({ ...RUN_ENV, GITHUB_RUN_ATTEMPT: '2', GITHUB_EVENT_PATH: h.event() });
    expect(res.code, res.stderr).toBe(0);
    expect(h.fake.violations).toEqual([]);
    expect(bodies()).toMatch(/flaky: the same job passed on attempt 1 of \[run #900\]\([^)]*\) at this same commit — re-run the job; the diff is not blamed/);
    expect(res.summary).toMatch(/flaky: the same job passed on attempt 1/);
    expect(historyRequests()).toBeLessThanOrEqual(5);
  });

  it('no green run within 14 days: as today, the history says why', async () => {
    onMain(700, 'success', 20);
    const res = await h.run({ ...RUN_ENV, GITHUB_EVENT_PATH: h.event() });
    expect(res.code, res.stderr).toBe(0);
    expect(h.fake.violations).toEqual([]);
    expect(h.fake.repo(REPO).reviewComments).toMatchObject([{ path: 'src/receipt.ts', line: 15 }]);
    expect(res.summary).toMatch(/history unknown \(no green run of this job in the last 14 days on main or currency\)/);
  });

  it('the green run\u2019s log has expired (410): as today, with a note', async () => {
    onMain(800, 'success', 1, { log: { text: PASSING, gone: true } });
    const res = await h.run({ ...RUN_ENV, GITHUB_EVENT_PATH: h.event() });
    expect(res.code, res.stderr).toBe(0);
    expect(h.fake.violations).toEqual([]);
    expect(h.fake.repo(REPO).reviewComments).toMatchObject([{ path: 'src/receipt.ts', line: 15 }]);
    expect(res.summary).toMatch(/new: the job passed in its last green \[run #800\].*has expired \(HTTP 410\)/);
  });

  it('the green run\u2019s log is of another job (the runner names another workflow): refused, said, the pin as without it', async () => {
    h.fake.repo(REPO).logs[501] = { text: PAIR('grasscutter-7801445827', 'failed') };
    onMain(800, 'success', 1, { log: PAIR('jbanking-8761138559', 'passed') });
    const res = await h.run({ ...RUN_ENV, GITHUB_EVENT_PATH: h.event() });
    expect(res.code, res.stderr).toBe(0);
    expect(h.fake.violations).toEqual([]);
    expect(res.summary).toMatch(/the passing log is not of the same job/);
    expect(res.summary).not.toMatch(/lines? of the failing step (?:is|are) new against the passing log/);
  });

  it('a PR whose diff does not reach the failure: the commits since the last green run are blamed, the range named', async () => {
    h.fake.repo(REPO).pulls[7]!.files = [{ filename: 'README.md', patch: '@@ -1,1 +1,1 @@\n-# invoicer\n+# invoicer (currencies)' }];
    onMain(800, 'success', 2, { sha: OLD_SHA });
    h.fake.addCompare(REPO, OLD_SHA, HEAD_SHA, { commits: [{ sha: 'aa'.padEnd(40, '1'), message: 'formatMoney takes a currency' }, { sha: HEAD_SHA, message: 'docs' }], files: prFiles().filter((f) => f.filename !== 'src/receipt.ts') });
    const res = await h.run({ ...RUN_ENV, GITHUB_EVENT_PATH: h.event() });
    expect(res.code, res.stderr).toBe(0);
    expect(h.fake.violations).toEqual([]);
    expect(bodies()).toMatch(/the PR's diff does not reach the failure, so blamed the 2 commits since the last green run \(\[`01d0000\.\.\.c0ffee1`\]\([^)]*\), 2 files\)/);
    expect(bodies()).toContain('src/money.ts');
    expect(historyRequests()).toBeLessThanOrEqual(5);
  });

  it('a huge passing log (128 MB here, 1 GB in the bench) is streamed once: the new lines found, the pin as today', async () => {
    // The real passing log's tsc step grown by real passing lines (a Maven run's [INFO] lines, fixtures/history-pairs).
    const filler = PAIR('jbanking-8761138559', 'passed').split('\n').filter((l) => l.includes('[INFO]')).map((l) => l.slice(29));
    onMain(800, 'success', 1, { log: { text: '', stream: bigPassingLog(PASSING, { step: 'npx tsc --noEmit', filler, bytes: 128 * 1024 * 1024 }) } });
    const res = await h.run({ ...RUN_ENV, GITHUB_EVENT_PATH: h.event() });
    expect(res.code, res.stderr).toBe(0);
    expect(h.fake.violations).toEqual([]);
    expect(h.fake.repo(REPO).reviewComments).toMatchObject([{ path: 'src/receipt.ts', line: 15 }]);
    expect(res.summary).toMatch(/new: the job passed in its last green \[run #800\][^\n]*; 2 lines of the failing step are new against the passing log/);
  }, 120_000);

  it('the rate limit runs low: the lookup stops at its first answer and says so in one line; the pin is as today', async () => {
    onMain(800, 'success');
    h.fake.setRateLimit(200, { limit: 1000 });
    const res = await h.run({ ...RUN_ENV, GITHUB_EVENT_PATH: h.event() });
    expect(res.code, res.stderr).toBe(0);
    expect(h.fake.violations).toEqual([]);
    expect(h.fake.repo(REPO).reviewComments).toMatchObject([{ path: 'src/receipt.ts', line: 15 }]);
    expect(res.summary).toMatch(/history unknown \(history skipped: rate-limit budget low \(\d+ of 1000 requests left this hour; history needs 500 to spare\)\)/);
    expect(historyRequests()).toBe(1);
  });
});

describe('history through the Action (mode 2: the teed log file)', () => {
  const MODE2 = { ...RUN_ENV, RUNNER_NAME: 'GitHub Actions 7', 'INPUT_LOG-FILE': join(FIXTURE, 'log.txt') };
  /** This step's own job, still running on its runner (the teed log is its own, the API's is not ready). */
  const ownJob = () => {
    delete h.fake.repo(REPO).jobs[501];
    h.fake.addJob(REPO, { id: 777, run_id: 900, name: 'typecheck', workflow_name: 'CI', head_sha: HEAD_SHA, head_branch: 'currency', status: 'in_progress', conclusion: null, runner_name: 'GitHub Actions 7', started_at: daysAgo(0) });
    h.fake.addJob(REPO, { id: 778, run_id: 900, name: 'lint', workflow_name: 'CI', head_sha: HEAD_SHA, head_branch: 'currency', status: 'in_progress', conclusion: null, runner_name: 'GitHub Actions 8', started_at: daysAgo(0) });
  };

  it('base green: the same lookup as mode 1, its own job found by its runner; "new" with the green run', async () => {
    ownJob();
    onMain(800, 'success');
    const res = await h.run({ ...MODE2, GITHUB_EVENT_PATH: h.event() });
    expect(res.code, res.stderr).toBe(0);
    expect(h.fake.violations).toEqual([]);
    expect(h.fake.repo(REPO).reviewComments[0]!.body).toMatch(/\*\*History:\*\* new: the job passed in its last green \[run #800\]/);
    expect(res.summary).toMatch(/2 lines of the failing step are new against the passing log/);
    // Its own job (1), the base's runs (1), the green run's jobs (1), compare (1), the green log's link (1).
    expect(historyRequests(false)).toBeLessThanOrEqual(5);
  });

  it('base red with the same failure: pre-existing', async () => {
    ownJob();
    onMain(800, 'success', 3);
    onMain(810, 'failure');
    const res = await h.run({ ...MODE2, GITHUB_EVENT_PATH: h.event() });
    expect(res.code, res.stderr).toBe(0);
    expect(h.fake.violations).toEqual([]);
    expect(res.summary).toMatch(/pre-existing: also failing on `main` since `ba5e000`, \[run #810\]/);
  });

  it('its own job not among the running ones: history skipped with a note, the pin as today', async () => {
    delete h.fake.repo(REPO).jobs[501];
    h.fake.addJob(REPO, { id: 778, run_id: 900, name: 'lint', workflow_name: 'CI', head_sha: HEAD_SHA, head_branch: 'currency', conclusion: 'success', started_at: daysAgo(0) });
    onMain(800, 'success');
    const res = await h.run({ ...MODE2, GITHUB_EVENT_PATH: h.event() });
    expect(res.code, res.stderr).toBe(0);
    expect(h.fake.violations).toEqual([]);
    expect(h.fake.repo(REPO).reviewComments).toMatchObject([{ path: 'src/receipt.ts', line: 15 }]);
    expect(res.summary).toMatch(/history unknown \(history skipped: this step's job was not found among the run's running jobs\)/);
  });
});

describe('history through the Action (mode 3: a workflow_run workflow)', () => {
  it('the triggering run\u2019s attempt 2 failed where attempt 1 passed the same job: flaky, from the event\u2019s run_attempt', async () => {
    // Mode 3's own world: the fork PR 8 and the triggering run 900 (its job 501 failed on attempt 2).
    delete h.fake.repo(REPO).jobs[501];
    seedWorkflowRun(h);
    h.fake.repo(REPO).jobs[501]!.run_attempt = 2;
    h.fake.addJob(REPO, { id: 499, run_id: TRIGGERING_RUN, run_attempt: 1, name: 'typecheck', workflow_name: 'CI', head_sha: HEAD_SHA, head_branch: 'currency', conclusion: 'success', started_at: daysAgo(0), log: PASSING });
    onMain(800, 'success');
    const res = await h.run(workflowRunEnv(workflowRunEvent(h, { runAttempt: 2 }), h.workspace));
    expect(res.code, res.stderr).toBe(0);
    expect(h.fake.violations).toEqual([]);
    expect(res.summary).toMatch(/flaky: the same job passed on attempt 1 of \[run #900\]\([^)]*\) at this same commit — re-run the job; the diff is not blamed/);
    expect(h.fake.requestsTo('GET', `/repos/${REPO}/actions/runs/${TRIGGERING_RUN}/jobs`).some((r) => r.query.filter === 'all')).toBe(true);
  });
});
