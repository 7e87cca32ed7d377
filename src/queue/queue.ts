/**
 * The work queue behind the webhook: the App answers GitHub at once and the diagnosis runs here.
 * Small on purpose so a durable adapter (Redis/BullMQ, a later issue) can replace the in-process one.
 */
export interface Job {
  /** The delivery id (X-GitHub-Delivery): GitHub redelivers with the same one, so it dedupes. */
  id: string;
  /** Jobs with the same key run one at a time (one PR: its comments must not race). */
  key: string;
  run: () => Promise<void>;
}

export interface JobQueue {
  /** Queues a job; false when a job with this id was already seen (a redelivery): nothing is queued. */
  add(job: Job): boolean;
  /** Jobs waiting or running. */
  readonly depth: number;
  /** Resolves when nothing is waiting or running (for shutdown and tests). */
  idle(): Promise<void>;
}
