import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deliver, type FakeLog } from '../helpers/fake-github/index.js';
import { bigPassingLog } from '../helpers/big-passing-log.js';
import { FIXTURE, HEAD_SHA, REPO, SECRET, patchFiles, startHarness, workflowJobPayload, type Harness } from './e2e-helpers.js';

/**
 * History through the App (issue 15): the last green run of the same job, the base branch's latest run
 * and re-runs of the same SHA, all found on the local GitHub (runs lists with their filters, jobs of a
 * run, their logs), validated against GitHub's OpenAPI description.
 *
 * Logs: the failing one is the tsc case's recorded log; the passing one is the same job's steps recorded
 * on the case's base tree (fixtures/logs/tsc-signature-change-call-site/record-passing.sh).
 */
const FAILING = readFileSync(join(FIXTURE, 'log.txt'), 'utf8');
const PASSING = readFileSync(join(FIXTURE, 'passing.log'), 'utf8');
const BASE_SHA = 'ba5e'.padEnd(40, '0');
const OLD_SHA = '01d0'.padEnd(40, '0');
const daysAgo = (d: number) => new Date(Date.now() - d * 86_400_000).toISOString().replace(/\.\d{3}Z$/, 'Z');

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
  h.fake.addPull(REPO, { number: 7, head: { ref: 'currency', sha: HEAD_SHA }, base: { ref: 'main', sha: BASE_SHA }, files: patchFiles() });
});
afterEach(async () => {
  await h.close();
});

/** The PR's failing job (run 900, attempt `attempt`), delivered; the queue drained. */
async function failOnPr(attempt = 1) {
  const job = h.fake.addJob(REPO, { id: 501 + attempt, run_id: 900, run_attempt: attempt, name: 'typecheck', workflow_name: 'CI', head_sha: HEAD_SHA, head_branch: 'currency', started_at: daysAgo(0), log: FAILING });
  const res = await deliver(h.webhookUrl, 'workflow_job', workflowJobPayload(h.fake, job), SECRET);
  expect(res.status).toBe(200);
  await h.queue.idle();
  if (process.env.I15_DEBUG) console.log(JSON.stringify(h.fake.requests.filter((r) => r.host !== 'blob').map((r) => [r.method, r.path, r.status]), null, 0), JSON.stringify(h.fake.violations));
  expect(h.fake.violations).toEqual([]);
  return job;
}

function onMain(runId: number, conclusion: 'success' | 'failure', opts: { sha?: string; days?: number; log?: string | FakeLog } = {}) {
  return h.fake.addJob(REPO, { id: runId * 10, run_id: runId, name: 'typecheck', workflow_name: 'CI', head_sha: opts.sha ?? BASE_SHA, head_branch: 'main', event: 'push', conclusion, started_at: daysAgo(opts.days ?? 1), log: opts.log ?? (conclusion === 'success' ? PASSING : FAILING) });
}

const comment = () => {
  const repo = h.fake.repo(REPO);
  const bodies = [...repo.reviewComments, ...repo.issueComments].map((c) => c.body);
  expect(bodies).toHaveLength(1);
  return bodies[0]!;
};
const check = () => h.fake.repo(REPO).checkRuns.find((c) => c.name === 'Redline')!;
/** API requests the history spent: runs lists, a run, jobs lists, compare and job-log links, but not the failing job's own. */
const historyRequests = () =>
  h.fake.requests.filter((r) => r.host !== 'blob' && /\/actions\/(?:runs|workflows)\/|\/compare\/|\/actions\/jobs\/(?!50[0-9])\d+\/logs/.test(r.path)).length;

describe('history through the App', () => {
  it('base green, failure new: pinned as today, the comment says new with the green run, the evidence has the new lines', async () => {
    onMain(800, 'success');
    await failOnPr();
    const body = comment();
    expect(body).toContain('src/receipt.ts');
    expect(body).toMatch(/\*\*History:\*\* new: the job passed in its last green \[run #800\]\(https:\/\/github\.com\/octo-org\/invoicer\/actions\/runs\/800\) at `ba5e000`/);
    expect(body).toContain('2 lines of the failing step are new against the passing log');
    expect(body).toContain('error TS2554: Expected 2 arguments, but got 1.');
    expect(check().output.title).not.toMatch(/^pre-existing|^flaky/);
    // The passing log was downloaded from storage without our token, like the failing one.
    expect(h.fake.requests.filter((r) => r.host === 'blob').every((r) => !r.headers.authorization)).toBe(true);
    expect(historyRequests()).toBeLessThanOrEqual(5);
  });

  it('base red with the same failure: pre-existing, run linked, no diff blame; the check run says pre-existing', async () => {
    onMain(800, 'success', { sha: OLD_SHA, days: 3 });
    onMain(810, 'failure');
    await failOnPr();
    const body = comment();
    expect(body).toMatch(/pre-existing: also failing on `main` since `ba5e000`, \[run #810\]\(https:\/\/github\.com\/octo-org\/invoicer\/actions\/runs\/810\)/);
    expect(body).toContain('the diff is not blamed');
    expect(check().output.title).toMatch(/^pre-existing: /);
    expect(historyRequests()).toBeLessThanOrEqual(5);
  });

  it('the base turned green again: the next failure is new again', async () => {
    onMain(810, 'failure', { days: 2 });
    onMain(820, 'success');
    await failOnPr();
    expect(comment()).toMatch(/new: the job passed in its last green \[run #820\]/);
  });

  it('a re-run of the same SHA passed: flaky, re-run suggested, no diff blame', async () => {
    onMain(800, 'success');
    h.fake.addJob(REPO, { id: 601, run_id: 900, run_attempt: 1, name: 'typecheck', workflow_name: 'CI', head_sha: HEAD_SHA, head_branch: 'currency', conclusion: 'success', started_at: daysAgo(0), log: PASSING });
    await failOnPr(2);
    const body = comment();
    expect(body).toMatch(/flaky: the same job passed on attempt 1 of \[run #900\]\([^)]*\) at this same commit — re-run the job/);
    expect(check().output.title).toMatch(/^flaky: /);
    expect(historyRequests()).toBeLessThanOrEqual(5);
  });

  it('the same failing test failed on the base and passed in a later run: flaky, the runs that disagree named', async () => {
    // A real jest failure (fixtures/logs/jest-paginate-off-by-one), failing on the PR and once on main before a green run.
    const jest = readFileSync(join(FIXTURE, '../jest-paginate-off-by-one/log.txt'), 'utf8');
    h.fake.addJob(REPO, { id: 8200, run_id: 820, name: 'typecheck', workflow_name: 'CI', head_sha: OLD_SHA, head_branch: 'main', event: 'push', conclusion: 'failure', started_at: daysAgo(2), log: jest });
    onMain(830, 'success');
    const job = h.fake.addJob(REPO, { id: 502, run_id: 900, name: 'typecheck', workflow_name: 'CI', head_sha: HEAD_SHA, head_branch: 'currency', started_at: daysAgo(0), log: jest });
    await deliver(h.webhookUrl, 'workflow_job', workflowJobPayload(h.fake, job), SECRET);
    await h.queue.idle();
    expect(h.fake.violations).toEqual([]);
    const body = comment();
    expect(body).toMatch(/flaky: failed on `main` in \[run #820\]\([^)]*\) and passed in \[run #830\]\([^)]*\) — re-run the job; the diff is not blamed/);
    expect(check().output.title).toMatch(/^flaky: /);
    expect(historyRequests()).toBeLessThanOrEqual(5);
  });

  it('no green run within 14 days: as today, the history says why', async () => {
    onMain(700, 'success', { days: 20 });
    await failOnPr();
    const body = comment();
    expect(body).toContain('src/receipt.ts');
    expect(body).toMatch(/history unknown \(no green run of this job in the last 14 days on main or currency\)/);
  });

  it('the green run\u2019s log has expired: as today, with a note', async () => {
    onMain(800, 'success', { log: { text: PASSING, gone: true } });
    await failOnPr();
    const body = comment();
    expect(body).toContain('src/receipt.ts');
    expect(body).toMatch(/new: the job passed in its last green \[run #800\]/);
    expect(body).toMatch(/has expired \(HTTP 410\)/);
  });

  it('a push (opted in by `branches`): the commits since the last green run are blamed, and the check run names the range', async () => {
    // A push: no PR has this head.
    delete h.fake.repo(REPO).pulls[7];
    h.fake.repo(REPO).contents['.github/redline.yml'] = 'branches: [main]\n';
    onMain(800, 'success', { sha: OLD_SHA, days: 2 });
    h.fake.addCompare(REPO, OLD_SHA, HEAD_SHA, { commits: [{ sha: 'aa'.padEnd(40, '1'), message: 'formatMoney takes a currency' }, { sha: HEAD_SHA, message: 'invoices in their currency' }], files: patchFiles() });
    const job = h.fake.addJob(REPO, { id: 502, run_id: 900, name: 'typecheck', workflow_name: 'CI', head_sha: HEAD_SHA, head_branch: 'main', event: 'push', started_at: daysAgo(0), log: FAILING });
    const payload = workflowJobPayload(h.fake, { ...job, head_branch: 'main' }) as { repository: { default_branch: string } };
    payload.repository.default_branch = 'main';
    await deliver(h.webhookUrl, 'workflow_job', payload, SECRET);
    await h.queue.idle();
    if (process.env.I15_DEBUG) console.log(JSON.stringify(h.fake.requests.filter((r) => r.host !== 'blob').map((r) => [r.method, r.path, r.status])));
    expect(h.fake.violations).toEqual([]);
    const repo = h.fake.repo(REPO);
    expect(repo.reviewComments.length + repo.issueComments.length).toBe(0);
    const summary = check().output.summary!;
    expect(summary).toMatch(/new: the job passed in its last green \[run #800\]\([^)]*\) at `01d0000`.*; blamed the 2 commits since the last green run \(\[`01d0000\.\.\.c0ffee1`\]\(https:\/\/github\.com\/octo-org\/invoicer\/compare\/01d0+\.\.\.c0ffee1+\), 2 files\)/);
    // The changed signature the call sites break is among the findings: the range was the diff prior.
    expect(summary).toContain('src/money.ts');
    expect(h.fake.requestsTo('GET', `/repos/${REPO}/compare/${OLD_SHA}...${HEAD_SHA}`)).toHaveLength(1);
    expect(historyRequests()).toBeLessThanOrEqual(5);
  });

  it('a PR whose diff does not reach the failure: the commits since the last green run are blamed instead, and the comment says so', async () => {
    h.fake.repo(REPO).pulls[7]!.files = [{ filename: 'README.md', patch: '@@ -1,1 +1,1 @@\n-# invoicer\n+# invoicer (currencies)' }];
    onMain(800, 'success', { sha: OLD_SHA, days: 2 });
    h.fake.addCompare(REPO, OLD_SHA, HEAD_SHA, { commits: [{ sha: 'aa'.padEnd(40, '1'), message: 'formatMoney takes a currency' }, { sha: HEAD_SHA, message: 'docs' }], files: [...patchFiles(), { filename: 'README.md', patch: '@@ -1,1 +1,1 @@\n-# invoicer\n+# invoicer (currencies)' }, { filename: 'fixtures/rates.json', additions: 40_000, deletions: 0 }] });
    await failOnPr();
    const body = comment();
    expect(body).toMatch(/the PR's diff does not reach the failure, so blamed the 2 commits since the last green run \(\[`01d0000\.\.\.c0ffee1`\]\([^)]*\), 4 files\) — 1 file without a patch/);
    expect(body).toContain('src/money.ts');
    expect(historyRequests()).toBeLessThanOrEqual(5);
  });

  it('a PR whose diff reaches the failure keeps its own diff: the range is not blamed', async () => {
    onMain(800, 'success', { sha: OLD_SHA, days: 2 });
    h.fake.addCompare(REPO, OLD_SHA, HEAD_SHA, { commits: [{ sha: HEAD_SHA, message: 'x' }], files: [{ filename: 'README.md', patch: '@@ -1,1 +1,1 @@\n-a\n+b' }] });
    await failOnPr();
    const body = comment();
    expect(body).not.toMatch(/commits? since the last green run/);
    expect(body).toContain('src/receipt.ts');
  });

  it('the rate limit runs low: the lookup stops at its first answer, says so in one line, and the pin is as today', async () => {
    onMain(800, 'success');
    h.fake.setRateLimit(300);
    await failOnPr();
    const body = comment();
    expect(body).toContain('src/receipt.ts');
    expect(body).toMatch(/history unknown \(history skipped: rate-limit budget low \(\d+ of 5000 requests left this hour; history needs 500 to spare\)\)/);
    // One history request (the run, whose answer said so), nothing after it.
    expect(historyRequests()).toBe(1);
  });

  it('the green run\u2019s log is of another job (the runner names another workflow): refused because names must match, said in one line', async () => {
    // Real logs of two public projects' jobs (fixtures/history-pairs: BugSwarm's pairs).
    const pair = (name: string, side: string) => readFileSync(join(FIXTURE, '../../history-pairs', name, `${side}.log`), 'utf8');
    onMain(800, 'success', { log: pair('jbanking-8761138559', 'passed') });
    const job = h.fake.addJob(REPO, { id: 502, run_id: 900, name: 'typecheck', workflow_name: 'CI', head_sha: HEAD_SHA, head_branch: 'currency', started_at: daysAgo(0), log: pair('grasscutter-7801445827', 'failed') });
    await deliver(h.webhookUrl, 'workflow_job', workflowJobPayload(h.fake, job), SECRET);
    await h.queue.idle();
    expect(h.fake.violations).toEqual([]);
    const summary = check().output.summary!;
    expect(summary).toMatch(/\*\*History:\*\* new: the job passed in its last green \[run #800\][^\n]*the passing log is not of the same job/);
    expect(summary).not.toMatch(/lines? of the failing step (?:is|are) new against the passing log/);
  });

  it('a huge passing log (128 MB here, 1 GB in the bench) is streamed once within bounds: the new lines found, memory flat', async () => {
    // The real passing log's tsc step grown by real passing lines (a Maven run's [INFO] lines, fixtures/history-pairs).
    const filler = readFileSync(join(FIXTURE, '../../history-pairs/jbanking-8761138559/passed.log'), 'utf8').split('\n').filter((l) => l.includes('[INFO]')).map((l) => l.slice(29));
    const log = { text: '', stream: bigPassingLog(PASSING, { step: 'npx tsc --noEmit', filler, bytes: HUGE_BYTES }) };
    onMain(800, 'success', { log: log });
    const rss0 = process.memoryUsage().rss;
    let peak = rss0;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    try {
      await failOnPr();
    } finally {
      clearInterval(sampler);
    }
    const body = comment();
    expect(body).toContain('src/receipt.ts');
    expect(body).toMatch(/new: the job passed in its last green \[run #800\][^\n]*; 2 lines of the failing step are new against the passing log/);
    // The whole log went through (the blob host served it to the end); memory grew by less than it (~100 MB here, the App's checkout and parsers included).
    expect(h.fake.requests.filter((r) => r.host === 'blob' && r.path === '/_blob/job-logs/octo-org/invoicer/8000')).toHaveLength(1);
    if (process.env.I15_DEBUG) console.log('peak rss growth MB', (peak - rss0) / 2 ** 20);
    expect((peak - rss0) / 2 ** 20).toBeLessThan(200);
  }, 120_000);
});

/** The huge passing log's size in the App and Action scenarios: big enough to be no failing log's twin, small enough for a shared 2-core test run. */
const HUGE_BYTES = 128 * 1024 * 1024;
