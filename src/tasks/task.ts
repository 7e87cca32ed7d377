/**
 * What the App queues: plain data, one variant per kind of work, so a job can wait in a SQLite file or
 * in Redis and run in another process. Built by the doors from a webhook; run by run-task.ts, which
 * authenticates as the installation when the job runs (tokens expire; a job may wait for minutes).
 */
import type { FailedJob } from '../github/handle-failed-job.js';
import type { PassedJob } from '../github/mark-fixed.js';
import type { QueuedJob } from '../queue/queue.js';
import type { CommandName } from './run-command.js';

interface Common {
  /** The installation that sent the webhook (what the job authenticates as). */
  installationId?: number | undefined;
  /** owner/name, for the status page and logs. */
  repo: string;
}

/** A failed job or check run to diagnose and comment on. */
export interface DiagnoseTask extends Common {
  kind: 'diagnose';
  job: FailedJob;
}

/** A job that passed: Redline's comment for it is marked fixed. */
export interface MarkFixedTask extends Common {
  kind: 'mark-fixed';
  jobId: number;
  job: PassedJob;
}

/** A `/redline` command from a PR comment. */
export interface CommandTask extends Common {
  kind: 'command';
  /** The delivery, so the diagnoses the command queues get ids of their own that a redelivery repeats. */
  delivery: string;
  ref: { owner: string; repo: string };
  repoUrl: string;
  pr: number;
  commentId: number;
  login: string;
  command: { name: CommandName } | { name: 'unknown'; word: string };
}

export type Task = DiagnoseTask | MarkFixedTask | CommandTask;

/** One commit of one repository: its comments must not race, so its jobs run one at a time, in order. */
const commitKey = (repo: string, sha: string): string => `${repo}@${sha}`;

/** The queued job for a failure's diagnosis (several per delivery when a command re-runs a PR's failures). */
export function diagnoseJob(delivery: string, task: DiagnoseTask): QueuedJob<Task> {
  return { id: `${delivery}/${task.job.jobName}/${task.job.jobId}`, key: commitKey(task.repo, task.job.headSha), task };
}

export function markFixedJob(delivery: string, task: MarkFixedTask): QueuedJob<Task> {
  return { id: `${delivery}:fixed`, key: commitKey(task.repo, task.job.headSha), task };
}

/** A command has its own key: its acknowledgement must not wait behind the PR's running diagnoses. */
export function commandJob(task: CommandTask): QueuedJob<Task> {
  return { id: task.delivery, key: `command:${task.delivery}`, task };
}
