/**
 * The queue the App uses: Redis (BullMQ) when REDIS_URL is set, where `redline worker` processes run
 * the jobs; otherwise the embedded queue, which runs them in the App and keeps them in a SQLite file.
 */
import { InProcessQueue } from './in-process.js';
import type { JobQueue, QueuedJob, RunJob } from './queue.js';
import { RedisQueue } from './redis.js';

export interface QueueSettings {
  queueDb: string;
  concurrency: number;
  redisUrl?: string | undefined;
}

export interface QueueHooks<T> {
  run: RunJob<T>;
  onError?: (error: unknown, job: QueuedJob<T>, info: { attempt: number; dead: boolean }) => void;
  attempts?: number;
  backoffMs?: number;
}

export function openQueue<T>(settings: QueueSettings, hooks: QueueHooks<T>): JobQueue<T> {
  if (settings.redisUrl) return new RedisQueue<T>({ url: settings.redisUrl, ...(hooks.attempts ? { attempts: hooks.attempts } : {}) });
  return new InProcessQueue<T>({ path: settings.queueDb, concurrency: settings.concurrency, ...hooks });
}
