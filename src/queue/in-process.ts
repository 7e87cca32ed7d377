import type { Job, JobQueue } from './queue.js';

export interface InProcessQueueOptions {
  /** Jobs running at once (each holds a log and a checkout in flight). */
  concurrency?: number;
  /** Delivery ids remembered for dedupe; GitHub's manual redelivery window is 3 days, memory is the bound here. */
  rememberIds?: number;
  /** Called with a job's error: the queue never throws into the webhook handler. */
  onError?: (error: unknown, job: Job) => void;
}

/** Default jobs at once: diagnosis is mostly I/O and ripgrep, a few in parallel keep one core busy. */
export const DEFAULT_CONCURRENCY = 4;
/** Default delivery ids remembered: about a day of a busy installation's failures. */
export const DEFAULT_REMEMBER_IDS = 10_000;

/**
 * An in-memory queue: at most `concurrency` jobs run at once, jobs with the same key run in arrival
 * order one at a time, and a delivery id seen before is dropped. Lost on restart (a durable adapter
 * is a later issue): GitHub does not redeliver by itself, so a crash loses those diagnoses.
 */
export class InProcessQueue implements JobQueue {
  private readonly waiting: Job[] = [];
  private readonly busyKeys = new Set<string>();
  private readonly seen = new Set<string>();
  private running = 0;
  private idleWaiters: (() => void)[] = [];
  private readonly concurrency: number;
  private readonly rememberIds: number;
  private readonly onError: (error: unknown, job: Job) => void;

  constructor(opts: InProcessQueueOptions = {}) {
    this.concurrency = Math.max(1, opts.concurrency ?? DEFAULT_CONCURRENCY);
    this.rememberIds = Math.max(1, opts.rememberIds ?? DEFAULT_REMEMBER_IDS);
    this.onError = opts.onError ?? (() => {});
  }

  get depth(): number {
    return this.waiting.length + this.running;
  }

  add(job: Job): boolean {
    if (this.seen.has(job.id)) return false;
    this.seen.add(job.id);
    // A Set iterates in insertion order: the first entry is the oldest id.
    if (this.seen.size > this.rememberIds) this.seen.delete(this.seen.values().next().value!);
    this.waiting.push(job);
    this.pump();
    return true;
  }

  idle(): Promise<void> {
    if (this.depth === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private pump(): void {
    while (this.running < this.concurrency) {
      const i = this.waiting.findIndex((j) => !this.busyKeys.has(j.key));
      if (i < 0) break;
      const job = this.waiting.splice(i, 1)[0]!;
      this.running++;
      this.busyKeys.add(job.key);
      void job
        .run()
        .catch((e) => this.onError(e, job))
        .finally(() => {
          this.running--;
          this.busyKeys.delete(job.key);
          this.pump();
          if (this.depth === 0) this.idleWaiters.splice(0).forEach((r) => r());
        });
    }
  }
}
