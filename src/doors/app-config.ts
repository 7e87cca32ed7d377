import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { DEFAULT_CONCURRENCY } from '../queue/in-process.js';

/** The App's own settings (Probot reads APP_ID, PRIVATE_KEY, WEBHOOK_SECRET, GHE_HOST itself). */
export interface AppConfig {
  /** Where repository checkouts are cached (REDLINE_CACHE_DIR/checkouts). */
  cacheDir: string;
  /** Diagnoses running at once (REDLINE_CONCURRENCY). */
  concurrency: number;
}

/** Reads the App's settings from the environment; a bad value is a UsageError naming the variable. */
export function appConfigFromEnv(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const root = env.REDLINE_CACHE_DIR || join(tmpdir(), 'redline-cache');
  const raw = env.REDLINE_CONCURRENCY;
  const concurrency = raw === undefined || raw === '' ? DEFAULT_CONCURRENCY : Number(raw);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64) {
    throw new UsageError(`REDLINE_CONCURRENCY=${raw} is not a whole number from 1 to 64; unset it for the default (${DEFAULT_CONCURRENCY})`);
  }
  return { cacheDir: join(root, 'checkouts'), concurrency };
}
