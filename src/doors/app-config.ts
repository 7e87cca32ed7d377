import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { DEFAULT_CONCURRENCY } from '../queue/in-process.js';

/** The App's own settings (Probot reads APP_ID, PRIVATE_KEY, WEBHOOK_SECRET, GHE_HOST itself). */
export interface AppConfig {
  /** Where repository checkouts are cached (REDLINE_CACHE_DIR/checkouts). */
  cacheDir: string;
  /** Diagnoses running at once in this process (REDLINE_CONCURRENCY). */
  concurrency: number;
  /** The embedded queue's SQLite file (REDLINE_QUEUE_DB, default REDLINE_CACHE_DIR/queue.sqlite; `:memory:` keeps nothing). */
  queueDb: string;
  /** REDIS_URL: webhooks go to a BullMQ queue on Redis and `redline worker` processes run them. */
  redisUrl?: string | undefined;
}

/** Reads the App's settings from the environment; a bad value is a UsageError naming the variable. */
export function appConfigFromEnv(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const root = env.REDLINE_CACHE_DIR || join(tmpdir(), 'redline-cache');
  const raw = env.REDLINE_CONCURRENCY;
  const concurrency = raw === undefined || raw === '' ? DEFAULT_CONCURRENCY : Number(raw);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64) {
    throw new UsageError(`REDLINE_CONCURRENCY=${raw} is not a whole number from 1 to 64; unset it for the default (${DEFAULT_CONCURRENCY})`);
  }
  const redisUrl = env.REDIS_URL || undefined;
  if (redisUrl && !/^rediss?:\/\/./.test(redisUrl)) throw new UsageError("REDIS_URL is not a redis:// or rediss:// address (it is not repeated here: it may hold a password); unset it to use the embedded queue");
  return { cacheDir: join(root, 'checkouts'), concurrency, queueDb: env.REDLINE_QUEUE_DB || join(root, 'queue.sqlite'), redisUrl };
}
