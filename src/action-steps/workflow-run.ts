/**
 * Mode 3: a `workflow_run` workflow, for fork PRs. It runs in the base repository's trusted context
 * (a token that may write, the base branch's workflow file) and diagnoses the run that triggered it,
 * which is a different run: its failed jobs and their logs come through the API, the PR is found by
 * the head SHA (`pull_requests` is empty for forks), and the code at the head SHA comes from the
 * tarball API into a cache folder (src/github/checkout.ts: safe extraction). The fork's code is only
 * ever read as data: nothing is checked out into the workspace and nothing of it runs. The runner's
 * `GITHUB_WORKSPACE` holds the base repository (if anything) and is never read in this mode.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkoutAt } from '../github/checkout.js';
import { type GitHub, checkRef } from '../github/client.js';
import { findPullRequest } from '../github/pull-request.js';
import type { ActionContext } from './context.js';

/** The triggering run, as the `workflow_run` event describes it. */
export interface WorkflowRunEvent {
  id: number;
  /** `completed` is the only action acted on. */
  action: string;
  conclusion: string | null;
  headSha: string;
  headBranch: string | null;
  /** `owner/name` of the repository the head commit lives in (the fork for a fork PR). */
  headRepo?: string;
  /** The payload's PRs: same-repository PRs only, empty for forks. */
  pullRequests: { number: number; head: { sha: string }; base?: { ref?: string } }[];
  /** Inputs that mean nothing in this mode (they name files of a checkout there is none of). */
  ignoredInputs: string[];
  /** The triggering run's attempt and workflow: where its history starts (github/history.ts). */
  runAttempt?: number;
  workflowId?: number;
}

interface RunPayload {
  action?: string;
  workflow_run?: {
    id?: unknown;
    conclusion?: unknown;
    head_sha?: unknown;
    head_branch?: unknown;
    head_repository?: { full_name?: unknown } | null;
    pull_requests?: unknown;
    run_attempt?: unknown;
    workflow_id?: unknown;
  };
}

/** Reads the triggering run from the event; throws with a readable message when it is not there. */
export function readWorkflowRun(event: unknown, ignoredInputs: string[] = []): WorkflowRunEvent {
  const p = (event ?? {}) as RunPayload;
  const r = p.workflow_run;
  if (!r || typeof r.id !== 'number' || typeof r.head_sha !== 'string') throw new Error('the workflow_run event has no workflow_run.id / head_sha: is GITHUB_EVENT_PATH the event of this run?');
  const prs = Array.isArray(r.pull_requests) ? (r.pull_requests as WorkflowRunEvent['pullRequests']) : [];
  return {
    id: r.id,
    action: p.action ?? '',
    conclusion: typeof r.conclusion === 'string' ? r.conclusion : null,
    headSha: r.head_sha,
    headBranch: typeof r.head_branch === 'string' ? r.head_branch : null,
    ...(typeof r.head_repository?.full_name === 'string' ? { headRepo: r.head_repository.full_name } : {}),
    pullRequests: prs.filter((x) => typeof x?.number === 'number' && typeof x.head?.sha === 'string'),
    ignoredInputs,
    ...(typeof r.run_attempt === 'number' && r.run_attempt > 0 ? { runAttempt: r.run_attempt } : {}),
    ...(typeof r.workflow_id === 'number' ? { workflowId: r.workflow_id } : {}),
  };
}

/** Why the triggering run is not diagnosed, or nothing when it is (a completed, failed run). */
export function skipReason(run: WorkflowRunEvent): string | undefined {
  if (run.action && run.action !== 'completed') return `the workflow_run event is "${run.action.slice(0, 40)}", not "completed"`;
  if (run.conclusion !== 'failure') return `the triggering run did not fail (conclusion: ${String(run.conclusion).slice(0, 40)})`;
  return undefined;
}

/**
 * The context of the triggering run: its id (whose failed jobs are listed), its head SHA (permalinks,
 * the comment's commit) and its open PR, found by SHA. The token of a `workflow_run` workflow may
 * write, so a fork PR is written to like any other (a refused write still falls back to annotations).
 * No workspace yet: `checkoutHead` gives one once there is something to diagnose.
 */
export async function triggeringRunContext(ctx: ActionContext, gh: GitHub, run: WorkflowRunEvent): Promise<ActionContext> {
  checkRef(ctx.ref, run.headSha);
  const pr = await findPullRequest(gh, ctx.ref, run.headSha, run.pullRequests);
  const { pr: _none, ...rest } = ctx;
  return {
    ...rest,
    runId: run.id,
    sha: run.headSha,
    workspace: '',
    ...(pr ? { pr: { number: pr.number, headSha: pr.headSha, baseRef: pr.baseRef ?? '', fromFork: false } } : {}),
  };
}

/** The repository at the head SHA, from the tarball API into a cache under the runner's temp folder. */
export function checkoutHead(ctx: ActionContext, gh: GitHub, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  return checkoutAt(gh, ctx.ref, ctx.sha, { cacheDir: join(env.RUNNER_TEMP || tmpdir(), 'redline', 'checkouts') });
}
