/**
 * Mode 3's world on the local GitHub: a failed CI run of a fork PR (a real `workflow_run.completed`
 * payload from @octokit/webhooks-examples, edited), its jobs and log, the PR and the code at the head SHA.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixtureTarball } from '../app/fixture-repo.js';
import { examplePayload } from '../helpers/fake-github/index.js';
import { FIXTURE, HEAD_SHA, REPO, prFiles, type ActionHarness } from './harness.js';

const LOG = readFileSync(join(FIXTURE, 'log.txt'), 'utf8');
export const FORK = 'mallory/invoicer';
/** The run that failed (the fork PR's CI) and this one (the workflow_run workflow): different runs. */
export const TRIGGERING_RUN = 900;
export const THIS_RUN = 950;

/** A real `workflow_run.completed` payload, edited to the CI run of a fork PR at HEAD_SHA; returns its path. */
export function workflowRunEvent(h: ActionHarness, opts: { conclusion?: string; action?: string; runAttempt?: number } = {}): string {
  const p = examplePayload('workflow_run', 'completed');
  const [owner, name] = REPO.split('/') as [string, string];
  const base = { ...p.repository, name, full_name: REPO, fork: false, owner: { ...p.repository.owner, login: owner } };
  const fork = { ...p.repository, name, full_name: FORK, fork: true, owner: { ...p.repository.owner, login: 'mallory' } };
  p.action = opts.action ?? 'completed';
  p.repository = base;
  p.workflow_run = {
    ...p.workflow_run,
    id: TRIGGERING_RUN, name: 'CI', event: 'pull_request', status: 'completed', conclusion: opts.conclusion ?? 'failure',
    head_sha: HEAD_SHA, head_branch: 'currency', pull_requests: [],
    // The fake's CI workflow (its runs list's workflow_id) and the attempt that failed.
    workflow_id: 1, run_attempt: opts.runAttempt ?? 1,
    repository: base, head_repository: fork,
    html_url: `https://github.com/${REPO}/actions/runs/${TRIGGERING_RUN}`,
  };
  const path = join(h.tmp, `workflow-run-${p.workflow_run.conclusion}-${p.action}-${p.workflow_run.run_attempt}.json`);
  writeFileSync(path, JSON.stringify(p));
  return path;
}

/** The fork PR, the triggering run's jobs (one failed) and the repository at the head SHA. */
export function seedWorkflowRun(h: ActionHarness): void {
  h.fake.addRepo(FORK, { fork_of: REPO, installation: false });
  h.fake.addPull(REPO, { number: 8, head: { ref: 'currency', sha: HEAD_SHA, repo: FORK }, files: prFiles() });
  h.fake.addJob(REPO, { id: 501, run_id: TRIGGERING_RUN, name: 'typecheck', workflow_name: 'CI', head_sha: HEAD_SHA, head_branch: 'currency', log: LOG });
  h.fake.addJob(REPO, { id: 502, run_id: TRIGGERING_RUN, name: 'lint', workflow_name: 'CI', head_sha: HEAD_SHA, head_branch: 'currency', conclusion: 'success', log: 'ok\n' });
  h.fake.repo(REPO).tarballs[HEAD_SHA] = fixtureTarball();
}

/** The env of the workflow_run workflow's step: this run, the default branch, an untouched workspace. */
export function workflowRunEnv(event: string, workspace: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    GITHUB_EVENT_NAME: 'workflow_run', GITHUB_EVENT_PATH: event, GITHUB_WORKSPACE: workspace,
    GITHUB_WORKFLOW: 'Redline', GITHUB_JOB: 'redline', GITHUB_RUN_ID: String(THIS_RUN), GITHUB_SHA: 'b'.repeat(40), GITHUB_REF: 'refs/heads/main',
    ...extra,
  };
}
