/**
 * The work queue behind the webhook: the App answers GitHub at once and the diagnosis runs later,
 * here or in a `redline worker` process. Jobs are plain data (src/tasks/task.ts), never closures, so a
 * queue can keep them on disk (SQLite, the embedded default) or hand them to other machines (Redis).
 */
import { redactSecrets } from '../safety/redact.js';
export interface QueuedJob<T = unknown> {
  /** The delivery id (X-GitHub-Delivery) plus a suffix per job: GitHub redelivers with the same id, so it dedupes. */
  id: string;
  /** Jobs with the same key run one at a time, in arrival order (one commit of one PR: its comments must not race). */
  key: string;
  /** What to do: JSON-serialisable. */
  task: T;
}

/** Runs one job; a throw is retried with backoff and, when the retries are spent, dead-lettered. */
export type RunJob<T = unknown> = (job: QueuedJob<T>, info: { attempt: number }) => Promise<void>;

/** A job whose retries were spent: kept with its last error for a person to look at. */
export interface DeadLetter {
  id: string;
  key: string;
  attempts: number;
  error: string;
  at: string;
}

export interface QueueCounts {
  waiting: number;
  running: number;
  dead: number;
}

export interface JobQueue<T = unknown> {
  /** Queues a job; false when a job with this id was already seen (a redelivery): nothing is queued. */
  add(job: QueuedJob<T>): Promise<boolean>;
  /** Waiting (including backing off) and running jobs, and the dead letters. */
  counts(): Promise<QueueCounts>;
  /** The most recent dead letters, newest first. */
  deadLetters(limit?: number): Promise<DeadLetter[]>;
  /** Resolves when nothing this process can see is waiting or running (shutdown and tests). */
  idle(): Promise<void>;
  /** Stops taking work and releases the store; running jobs finish first. */
  close(): Promise<void>;
}

/** Retries after a job throws (GitHub down longer than the client's own retries): 30 s, 2 min, 8 min. */
export const DEFAULT_ATTEMPTS = 4;
export const DEFAULT_BACKOFF_MS = 30_000;

/**
 * The wait before attempt `attempt + 1`: quadrupling, so a GitHub incident is ridden out without
 * hammering it, and never sooner than the error's own `retryAfterMs` (a rate limit GitHub asked us to
 * wait out longer than a job may hold its slot: run-task.ts sets it).
 */
export const backoffMs = (base: number, attempt: number, error?: unknown): number => {
  const hint = Number((error as { retryAfterMs?: unknown } | null)?.retryAfterMs);
  return Math.max(base * 4 ** Math.max(0, attempt - 1), Number.isFinite(hint) ? hint : 0);
};

/** An error as one line for the dead-letter list (no stack: it may carry paths and payload text). */
export const errorLine = (e: unknown): string => redactSecrets(String((e as Error)?.message ?? e).split("\n")[0]!.slice(0, 500)).text;
