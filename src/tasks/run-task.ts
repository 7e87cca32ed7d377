/**
 * Runs a queued task (src/tasks/task.ts): the one place where queued data becomes GitHub work, used by
 * the App's embedded queue and by `redline worker` alike. The installation client is made when the
 * job runs, from the installation id the webhook carried.
 */
import type { GitHub } from '../github/client.js';
import type { IsOurs } from '../github/comments.js';
import { handleFailedJob, type JobDeps, type JobOutcome } from '../github/handle-failed-job.js';
import { markFixed } from '../github/mark-fixed.js';
import { primaryResetWaitMs, resilient, secondaryRetryAfter, UNSTATED_WAIT_S, type ResilienceOptions } from '../github/resilience.js';
import type { QueuedJob } from '../queue/queue.js';
import { runCommand } from './run-command.js';
import type { Task } from './task.js';

export interface TaskDeps {
  /** An installation client (Probot's `app.auth(id)`), made per job. */
  auth: (installationId: number | undefined) => Promise<GitHub>;
  cacheDir: string;
  /** Resolves to the predicate for Redline's own account. */
  isOurs: () => Promise<IsOurs>;
  /** Queues follow-up jobs (a command's diagnoses). */
  enqueue: (job: QueuedJob<Task>) => Promise<boolean>;
  logFetch?: JobDeps['logFetch'];
  resilience?: ResilienceOptions;
  /** Stores the job's artifacts (src/service) and returns the comment's link. */
  artifacts?: JobDeps['artifacts'];
  /** History lookups cached for this process's jobs (github/history.ts). */
  historyCache?: JobDeps['historyCache'];
  /** Told each diagnosis' outcome (the status page's recent diagnoses). */
  onOutcome?: (out: JobOutcome, job: { repo: string; installationId?: number | undefined; startedMs: number }) => void;
  log: (fields: Record<string, unknown>, msg: string) => void;
}

export async function runTask(task: Task, deps: TaskDeps): Promise<void> {
  try {
    await runTaskNow(task, deps);
  } catch (e) {
    // A rate limit we did not wait out in the job: the queue retries no sooner than GitHub asked.
    const afterMs = (secondaryRetryAfter(e, UNSTATED_WAIT_S) ?? Infinity) * 1000;
    const waitMs = Math.min(afterMs, primaryResetWaitMs(e, Date.now(), UNSTATED_WAIT_S * 1000) ?? Infinity);
    if (waitMs < Infinity && e && typeof e === 'object') Object.assign(e, { retryAfterMs: waitMs });
    throw e;
  }
}

async function runTaskNow(task: Task, deps: TaskDeps): Promise<void> {
  const gh = await deps.auth(task.installationId);
  const isOurs = await deps.isOurs();
  switch (task.kind) {
    case 'diagnose': {
      const startedMs = performance.now();
      const out = await handleFailedJob(task.job, {
        gh,
        cacheDir: deps.cacheDir,
        isOurs,
        ...(deps.logFetch ? { logFetch: deps.logFetch } : {}),
        ...(deps.resilience ? { resilience: deps.resilience } : {}),
        ...(deps.artifacts ? { artifacts: deps.artifacts } : {}),
        ...(deps.historyCache ? { historyCache: deps.historyCache } : {}),
      });
      deps.onOutcome?.(out, { repo: task.repo, installationId: task.installationId, startedMs });
      deps.log({ job: task.job.jobId, status: out.status, ...(out.status === 'published' ? { action: out.result.action, tier: out.result.placement.tier } : {}) }, 'redline: job done');
      return;
    }
    case 'mark-fixed': {
      const out = await markFixed(resilient(gh, { isOurs, ...deps.resilience }), task.job, { isOurs });
      if (out.status === 'marked') deps.log({ job: task.jobId, marked: out.comments.length, left: out.left }, 'redline: marked fixed');
      return;
    }
    case 'command':
      return runCommand(resilient(gh, { isOurs, ...deps.resilience }), task, { isOurs, enqueue: deps.enqueue, log: deps.log });
    default:
      throw new Error(`unknown task kind ${(task as { kind?: unknown }).kind}: a job queued by a newer Redline? It is dead-lettered`);
  }
}
