/**
 * Mode 3, the `workflow_run` workflow for fork PRs, run as the runner runs it: the bundled Action as a
 * child process with a real `workflow_run.completed` payload (from @octokit/webhooks-examples) edited
 * to a failed run of a fork PR, against the local GitHub. The triggering run's failed job, its log,
 * the PR (found by head SHA: `pull_requests` is empty for forks) and the code (the tarball at the head
 * SHA) all come through the API; GITHUB_WORKSPACE is an empty folder that must stay untouched.
 */
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseFingerprint } from '../../src/report/fingerprint.js';
import { HEAD_SHA, REPO, startActionHarness, writes, type ActionHarness } from './harness.js';
import { FORK, THIS_RUN, TRIGGERING_RUN, seedWorkflowRun, workflowRunEnv, workflowRunEvent as eventFor } from './workflow-run-fixture.js';

let h: ActionHarness;
let workspace: string;
beforeEach(async () => {
  h = await startActionHarness();
  workspace = mkdtempSync(join(h.tmp, 'base-workspace-'));
});
afterEach(async () => {
  await h.close();
});

const workflowRunEvent = (opts: { conclusion?: string; action?: string } = {}): string => eventFor(h, opts);
const seed = (): void => seedWorkflowRun(h);
const env = (event: string, extra: Record<string, string> = {}): Record<string, string> => workflowRunEnv(event, workspace, extra);

describe('the GitHub Action in a workflow_run workflow (mode 3: fork PRs)', () => {
  it('a failed fork PR run → its failed job diagnosed from the API and the tarball, one review comment on the line', async () => {
    seed();
    const res = await h.run(env(workflowRunEvent()));
    expect(res.code, res.stderr).toBe(0);
    expect(h.fake.violations).toEqual([]);

    // The triggering run's jobs, not this run's; the failed job's log only; the code as a tarball.
    expect(h.fake.requestsTo('GET', `/repos/${REPO}/actions/runs/${TRIGGERING_RUN}/jobs`)).toHaveLength(1);
    expect(h.fake.requestsTo('GET', `/repos/${REPO}/actions/runs/${THIS_RUN}/jobs`)).toHaveLength(0);
    expect(h.fake.requestsTo('GET', /\/actions\/jobs\/501\/logs$/)).toHaveLength(1);
    expect(h.fake.requestsTo('GET', /\/actions\/jobs\/502\/logs$/)).toHaveLength(0);
    expect(h.fake.requestsTo('GET', `/repos/${REPO}/tarball/${HEAD_SHA}`)).toHaveLength(1);
    // The PR by head SHA (the payload has none for a fork); nothing asked of the fork's repository.
    expect(h.fake.requestsTo('GET', `/repos/${REPO}/commits/${HEAD_SHA}/pulls`)).toHaveLength(1);
    expect(h.fake.requests.filter((r) => r.path.startsWith(`/repos/${FORK}/`))).toEqual([]);
    // Redirect targets (log, tarball) are fetched without the token.
    expect(h.fake.requests.filter((r) => r.host === 'blob').every((r) => !r.headers.authorization)).toBe(true);
    // GITHUB_WORKSPACE (the base repository's, if anything) is neither read as the repo nor written to.
    expect(readdirSync(workspace)).toEqual([]);
    expect(res.stdout + res.stderr).not.toContain(workspace);

    // The token of a workflow_run workflow may write: the fork PR gets the App's placement.
    const repo = h.fake.repo(REPO);
    expect(repo.reviewComments).toHaveLength(1);
    expect(repo.reviewComments[0]).toMatchObject({ pull_number: 8, path: 'src/receipt.ts', line: 15, side: 'RIGHT', commit_id: HEAD_SHA, user: 'github-actions[bot]' });
    expect(repo.reviewComments[0]!.body).toContain('/job/501');
    expect(repo.reviewComments[0]!.body).toContain(`/blob/${HEAD_SHA}/src/receipt.ts#L15`);
    expect(parseFingerprint(repo.reviewComments[0]!.body)?.family).toBeDefined();
    expect(repo.issueComments).toHaveLength(0);
    expect(repo.checkRuns.filter((c) => c.name === 'Redline' && c.head_sha === HEAD_SHA)).toHaveLength(1);
    expect(res.stdout).not.toMatch(/^::error /m);

    expect(res.outputs).toMatchObject({ file: 'src/receipt.ts', line: '15', category: 'compile', status: 'located' });
    expect(res.outputs['comment-url']).toBe(`https://github.com/${REPO}/pull/8#discussion_r${repo.reviewComments[0]!.id}`);
    expect(res.summary).toContain('CI / typecheck');
    expect(res.summary).toContain('src/receipt.ts:15');
    expect(res.summary).toContain('TS2554');

    // A re-run of the same workflow_run (same failure) edits nothing and posts nothing new.
    const commentWrites = (): number => writes(h.fake).filter((r) => /\/(comments|reviews)\b/.test(r.path)).length;
    const before = commentWrites();
    const again = await h.run(env(workflowRunEvent()));
    expect(again.code, again.stderr).toBe(0);
    expect(repo.reviewComments).toHaveLength(1);
    expect(commentWrites()).toBe(before);
    expect(h.fake.violations).toEqual([]);
  });

  it('a run that did not fail (or is not completed) → nothing read or written, status skipped', async () => {
    seed();
    for (const e of [workflowRunEvent({ conclusion: 'success' }), workflowRunEvent({ action: 'requested', conclusion: 'failure' })]) {
      const res = await h.run(env(e));
      expect(res.code, res.stderr).toBe(0);
      expect(res.outputs).toMatchObject({ status: 'skipped', file: '' });
      expect(res.summary).toContain('Nothing to diagnose');
    }
    expect(h.fake.requests).toEqual([]);
  });

  it('log-file and config inputs are ignored (they would name files of GITHUB_WORKSPACE), said once', async () => {
    seed();
    writeFileSync(join(h.tmp, 'decoy.log'), 'nothing here\n');
    const res = await h.run(env(workflowRunEvent(), { 'INPUT_LOG-FILE': join(h.tmp, 'decoy.log'), INPUT_CONFIG: 'redline.yml' }));
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/^::warning::Redline: log-file and config ignored in a workflow_run workflow/m);
    expect(h.fake.requestsTo('GET', /\/actions\/jobs\/501\/logs$/)).toHaveLength(1);
    expect(res.outputs).toMatchObject({ file: 'src/receipt.ts', line: '15', status: 'located' });
    expect(readdirSync(workspace)).toEqual([]);
  });
});
