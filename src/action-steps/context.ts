/**
 * What the runner tells the Action: its inputs (`INPUT_<NAME>`, upper-cased, dashes kept), the run's
 * environment (`GITHUB_*`) and the event payload. Read once, validated, and nothing else reads env.
 */
import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { RepoRef } from '../github/client.js';
import { readWorkflowRun, type WorkflowRunEvent } from './workflow-run.js';

export type CommentMode = 'review' | 'annotations' | 'none';

export interface ActionContext {
  token: string;
  /** Mode 2: the log the user teed to a file, relative to the workspace (or absolute). */
  logFile?: string;
  /** Globs of job names to diagnose in mode 1 (empty: every failed job; the config's `jobs` otherwise). */
  jobs: string[];
  /** Unset when the input is empty: the repository config (or `review`) decides. */
  comment?: CommentMode;
  anthropicApiKey?: string;
  /** A config file in the checkout, instead of `.github/redline.yml` at the base branch. */
  configPath?: string;
  ref: RepoRef;
  apiUrl: string;
  /** https://github.com/<owner>/<repo>: permalinks and comment URLs. */
  repoUrl: string;
  /** The runner's checkout; in mode 3 ('' until then) the head SHA's tarball checkout, never GITHUB_WORKSPACE. */
  workspace: string;
  /** The run whose failed jobs are listed: this run, or in mode 3 the triggering run. */
  runId: number;
  /** "<workflow> / <job>" of this step's own job: the fingerprint family in mode 2. */
  jobName: string;
  sha: string;
  eventName: string;
  pr?: { number: number; headSha: string; baseRef: string; fromFork: boolean };
  /** Mode 3 (`GITHUB_EVENT_NAME=workflow_run`): the run that triggered this one (src/action-steps/workflow-run.ts). */
  workflowRun?: WorkflowRunEvent;
  /** History (github/history.ts): this run's attempt, its workflow file, its branch and the default branch. */
  runAttempt?: number;
  workflowFile?: string;
  headBranch?: string;
  defaultBranch?: string;
  /** Mode 2: this step's job as the runner names it (GITHUB_JOB, the workflow's key) and the runner (RUNNER_NAME): how it is found in the run's jobs. */
  jobKey?: string;
  runnerName?: string;
}

/** The runner's way: `INPUT_` + the name upper-cased, spaces to `_`, dashes kept (`INPUT_LOG-FILE`). */
export function input(env: NodeJS.ProcessEnv, name: string): string {
  return (env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? '').trim();
}

interface PullPayload {
  number: number;
  head: { sha: string; repo?: { full_name?: string } | null };
  base: { ref: string; repo?: { full_name?: string } | null };
}

/** Reads the context from the environment; throws with a readable message when the runner's variables are missing. */
export function readContext(env: NodeJS.ProcessEnv = process.env): ActionContext {
  const need = (k: string): string => {
    const v = env[k];
    if (!v) throw new Error(`${k} is not set: run this as a step of a GitHub Actions job`);
    return v;
  };
  const [owner, repo] = need('GITHUB_REPOSITORY').split('/') as [string, string];
  const eventName = env.GITHUB_EVENT_NAME ?? '';
  // Mode 3: the workspace holds the base repository, not the PR's code; it is not even read.
  const isWorkflowRun = eventName === 'workflow_run';
  const workspace = isWorkflowRun ? '' : need('GITHUB_WORKSPACE');
  const comment = input(env, 'comment');
  if (comment && !['review', 'annotations', 'none'].includes(comment)) throw new Error(`input comment must be review, annotations or none (got ${JSON.stringify(comment.slice(0, 40))})`);
  const ignored = isWorkflowRun ? ['log-file', 'config'].filter((n) => input(env, n)) : [];
  const logFile = isWorkflowRun ? '' : input(env, 'log-file');
  const configPath = isWorkflowRun ? '' : input(env, 'config');
  const key = input(env, 'anthropic-api-key');
  let event: { pull_request?: PullPayload; repository?: { default_branch?: string } } = {};
  try {
    if (env.GITHUB_EVENT_PATH) event = JSON.parse(readFileSync(env.GITHUB_EVENT_PATH, 'utf8')) as typeof event;
  } catch {
    if (isWorkflowRun) throw new Error(`the event file ${env.GITHUB_EVENT_PATH} is not readable JSON`);
    event = {};
  }
  const workflowRun = isWorkflowRun ? readWorkflowRun(event, ignored) : undefined;
  const p = event.pull_request;
  const full = `${owner}/${repo}`.toLowerCase();
  const headRepo = p?.head.repo?.full_name?.toLowerCase();
  return {
    token: input(env, 'github-token') || env.GITHUB_TOKEN || '',
    ...(logFile ? { logFile: isAbsolute(logFile) ? logFile : resolve(workspace, logFile) } : {}),
    jobs: input(env, 'jobs').split(/[\n,]/).map((s) => s.trim()).filter(Boolean),
    ...(comment ? { comment: comment as CommentMode } : {}),
    ...(key ? { anthropicApiKey: key } : {}),
    ...(configPath ? { configPath: isAbsolute(configPath) ? configPath : resolve(workspace, configPath) } : {}),
    ref: { owner, repo },
    apiUrl: (env.GITHUB_API_URL ?? 'https://api.github.com').replace(/\/$/, ''),
    repoUrl: `${(env.GITHUB_SERVER_URL ?? 'https://github.com').replace(/\/$/, '')}/${owner}/${repo}`,
    workspace,
    runId: Number(env.GITHUB_RUN_ID ?? 0),
    jobName: `${env.GITHUB_WORKFLOW ?? ''} / ${env.GITHUB_JOB ?? ''}`,
    sha: p?.head.sha ?? env.GITHUB_SHA ?? '',
    eventName,
    ...(workflowRun ? { workflowRun } : {}),
    ...historyContext(env, event.repository?.default_branch, isWorkflowRun),
    ...(p
      ? {
          pr: {
            number: p.number,
            headSha: p.head.sha,
            baseRef: p.base.ref,
            // A `pull_request` run from a fork gets a read-only token: no write is even tried.
            fromFork: eventName === 'pull_request' && !!headRepo && headRepo !== full,
          },
        }
      : {}),
  };
}

/**
 * What the history lookup needs from the runner: the attempt, the workflow file (GITHUB_WORKFLOW_REF is
 * `owner/repo/.github/workflows/ci.yml@refs/…`; the runs list takes the file name as the workflow id)
 * and the branch. In mode 3 these describe this workflow, not the triggering run's: only the default branch is kept.
 */
function historyContext(env: NodeJS.ProcessEnv, defaultBranch: string | undefined, isWorkflowRun: boolean): Partial<ActionContext> {
  const out: Partial<ActionContext> = defaultBranch ? { defaultBranch } : {};
  if (isWorkflowRun) return out;
  const attempt = Number(env.GITHUB_RUN_ATTEMPT);
  if (Number.isInteger(attempt) && attempt > 0) out.runAttempt = attempt;
  const file = /\/\.github\/workflows\/([^/@]+)@/.exec(env.GITHUB_WORKFLOW_REF ?? '')?.[1];
  if (file) out.workflowFile = file;
  const branch = env.GITHUB_HEAD_REF || env.GITHUB_REF_NAME;
  if (branch) out.headBranch = branch;
  if (env.GITHUB_JOB) out.jobKey = env.GITHUB_JOB;
  if (env.RUNNER_NAME) out.runnerName = env.RUNNER_NAME;
  return out;
}
