/** `.github/redline.yml` in the App: read at the PR's base branch, validated, and obeyed (local GitHub, Probot for real). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CONFIG_CHECK_ID } from '../../src/github/repo-config.js';
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

/** A PR into `release` (not the default branch: the config must come from the PR's base) with the config there. */
function seed(yml?: string, opts: { pr?: boolean } = {}) {
  const repo = h.fake.repo(REPO);
  if (yml !== undefined) repo.contents['.github/redline.yml'] = yml;
  if (opts.pr !== false) h.fake.addPull(REPO, { number: 7, head: { ref: 'currency', sha: HEAD_SHA }, base: { ref: 'release' }, files: [...patchFiles(), RECEIPT_EDIT] });
  return h.fake.addJob(REPO, { id: 501, name: 'typecheck', workflow_name: 'CI', head_sha: HEAD_SHA, log: LOG });
}

async function deliverJob(job: { id: number; name: string; workflow_name: string }, edit?: (p: any) => void) { // eslint-disable-line @typescript-eslint/no-explicit-any
  const p = workflowJobPayload(h.fake, job);
  edit?.(p);
  const res = await deliver(h.webhookUrl, 'workflow_job', p, SECRET);
  await h.queue.idle();
  return res;
}

/** Requests that change something on GitHub (the installation token is how the App reads, not a write). */
const writes = () => h.fake.requests.filter((r) => r.method !== 'GET' && !/\/access_tokens$/.test(r.path));
const redlineRuns = () => h.fake.repo(REPO).checkRuns.filter((c) => c.name === 'Redline');

describe('repository config (.github/redline.yml) in the App', () => {
  it('is read through the API at the PR\u2019s base branch, so a fork PR cannot change it', async () => {
    const job = seed('comment: review\n');
    await deliverJob(job);
    expect(h.fake.violations).toEqual([]);
    const reads = h.fake.requestsTo('GET', /\/contents\/\.github(\/|%2F)redline\.yml$/);
    expect(reads).toHaveLength(1);
    expect(reads[0]!.query.ref).toBe('release');
    expect(h.fake.repo(REPO).reviewComments).toHaveLength(1);
  });

  it('a malformed config → one clear message in a Redline check run, no PR noise, and the diagnosis runs with the defaults', async () => {
    const job = seed('comment: loud\nignorePaths: src/**\n');
    await deliverJob(job);
    // A second failing job of the same commit: still one config message.
    const lint = h.fake.addJob(REPO, { id: 502, name: 'lint', workflow_name: 'CI', head_sha: HEAD_SHA, log: LOG });
    await deliverJob(lint);
    const repo = h.fake.repo(REPO);
    expect(h.fake.violations).toEqual([]);
    const configRuns = redlineRuns().filter((c) => c.external_id === CONFIG_CHECK_ID);
    expect(configRuns).toHaveLength(1);
    expect(configRuns[0]).toMatchObject({ conclusion: 'neutral', head_sha: HEAD_SHA, output: { title: '.github/redline.yml is invalid: defaults used' } });
    expect(configRuns[0]!.output.summary).toMatch(/comment: Invalid option: expected one of "review"\|"annotations"\|"none"/);
    expect(configRuns[0]!.output.summary).toMatch(/ignorePaths: /);
    expect(configRuns[0]!.output.summary).toMatch(/`release`/);
    // The defaults ran: the one review comment on the line; nothing about the config on the PR.
    expect(repo.reviewComments).toHaveLength(1);
    expect(repo.reviewComments[0]).toMatchObject({ path: 'src/receipt.ts', line: 15 });
    expect([...repo.reviewComments, ...repo.issueComments].some((c) => /redline\.yml/.test(c.body))).toBe(false);
    expect(h.fake.requestsTo('POST', `/repos/${REPO}/check-runs`).filter((r) => (r.body as { external_id?: string }).external_id === CONFIG_CHECK_ID)).toHaveLength(1);
  });

  it('bad YAML is said the same way', async () => {
    const job = seed('jobs: [typecheck\n');
    await deliverJob(job);
    const run = redlineRuns().find((c) => c.external_id === CONFIG_CHECK_ID)!;
    expect(run.output.summary).toMatch(/is not valid YAML/);
    expect(h.fake.repo(REPO).reviewComments).toHaveLength(1);
  });

  it('enabled: false → nothing is written (no comment, no check run, no log download)', async () => {
    const job = seed('enabled: false\n');
    await deliverJob(job);
    expect(h.fake.violations).toEqual([]);
    expect(writes()).toEqual([]);
    expect(h.fake.requestsTo('GET', /\/logs$/)).toHaveLength(0);
    expect(h.fake.requestsTo('GET', /\/tarball\//)).toHaveLength(0);
  });

  it('jobs: only the jobs whose names match are diagnosed (the job name, or "workflow / job")', async () => {
    const job = seed('jobs: [lint, "test (*)"]\n');
    await deliverJob(job);
    expect(writes()).toEqual([]);
    expect(h.fake.requestsTo('GET', /\/logs$/)).toHaveLength(0);

    h.fake.repo(REPO).contents['.github/redline.yml'] = 'jobs: ["CI / type*"]\n';
    const rerun = h.fake.addJob(REPO, { id: 503, name: 'typecheck', workflow_name: 'CI', head_sha: HEAD_SHA, log: LOG });
    await deliverJob(rerun);
    expect(h.fake.repo(REPO).reviewComments).toHaveLength(1);
  });

  it('ignorePaths: a finding in an ignored path is dropped (no pin there)', async () => {
    const job = seed('ignorePaths: ["src/receipt.*"]\n');
    await deliverJob(job);
    const repo = h.fake.repo(REPO);
    expect(h.fake.violations).toEqual([]);
    expect(repo.reviewComments.filter((c) => c.path === 'src/receipt.ts')).toHaveLength(0);
    expect(redlineRuns().flatMap((c) => c.annotations).filter((a) => a.path === 'src/receipt.ts')).toHaveLength(0);
  });

  it('comment: annotations → only the check run, with the pin as an annotation (no PR comment)', async () => {
    const job = seed('comment: annotations\n');
    await deliverJob(job);
    const repo = h.fake.repo(REPO);
    expect(h.fake.violations).toEqual([]);
    expect(repo.reviewComments.length + repo.issueComments.length).toBe(0);
    expect(redlineRuns()).toHaveLength(1);
    expect(redlineRuns()[0]!.annotations).toMatchObject([{ path: 'src/receipt.ts', start_line: 15 }]);
  });

  it('comment: none → the check run only, without annotations', async () => {
    const job = seed('comment: none\n');
    await deliverJob(job);
    const repo = h.fake.repo(REPO);
    expect(repo.reviewComments.length + repo.issueComments.length).toBe(0);
    expect(redlineRuns()).toMatchObject([{ conclusion: 'neutral', annotations: [] }]);
    expect(redlineRuns()[0]!.output.title).toMatch(/src\/receipt\.ts:15/);
  });

  it('branches: a failed push without a PR is diagnosed on a selected branch (check run only), not on others', async () => {
    const job = seed('branches: [main, "release/*"]\n', { pr: false });
    await deliverJob(job, (p) => (p.workflow_job.head_branch = 'feature/x'));
    expect(writes()).toEqual([]);
    const again = h.fake.addJob(REPO, { id: 504, name: 'typecheck', workflow_name: 'CI', head_sha: HEAD_SHA, log: LOG });
    await deliverJob(again, (p) => (p.workflow_job.head_branch = 'release/2.1'));
    const repo = h.fake.repo(REPO);
    expect(h.fake.violations).toEqual([]);
    expect(repo.reviewComments.length + repo.issueComments.length).toBe(0);
    expect(redlineRuns()).toHaveLength(1);
    expect(redlineRuns()[0]!.annotations).toMatchObject([{ path: 'src/receipt.ts', start_line: 15 }]);
  });
});
