/**
 * `redline worker`: a process that runs the App's queued jobs from Redis (REDIS_URL), as many of them
 * as you start, on as many machines. It authenticates as the App exactly like `probot run` does
 * (APP_ID, PRIVATE_KEY or PRIVATE_KEY_PATH, GHE_HOST/GHE_PROTOCOL for GitHub Enterprise Server), runs
 * the same task code as the embedded queue (src/tasks/run-task.ts), and stops cleanly on SIGTERM/SIGINT
 * (running jobs finish first; a worker killed outright has its jobs taken over by the others).
 */
import type { HistoryCache } from '../github/history.js';
import { createProbot, ProbotOctokit } from 'probot';
import { UsageError } from '../errors.js';
import type { GitHub } from '../github/client.js';
import { MAX_RESET_WAIT_S } from '../github/resilience.js';
import { RedisWorker } from '../queue/redis.js';
import { runTask } from '../tasks/run-task.js';
import type { Task } from '../tasks/task.js';
import { RedisOutcomeFeed } from '../service/outcome-feed.js';
import { RedlineService, recentOf, serviceOptionsFromEnv } from '../service/service.js';
import { lazyIsOurs } from './app.js';
import { appConfigFromEnv } from './app-config.js';
import type { CliIO } from './cli.js';
import { RedisQueue } from '../queue/redis.js';
import { WORKER_USAGE } from './worker-usage.js';

export { WORKER_USAGE };

/** Milliseconds from an environment variable (the lock and backoff knobs), or the default. */
function ms(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${name}=${raw} is not a whole number of milliseconds above 0; unset it for the default`);
  return n;
}

export async function workerCommand(argv: string[], io: CliIO, opts: { signal?: AbortSignal } = {}): Promise<number> {
  const env = io.env ?? process.env;
  if (argv.includes('--help') || argv.includes('-h')) {
    io.stdout.write(WORKER_USAGE + '\n');
    return 0;
  }
  const config = appConfigFromEnv(env);
  // History lookups (github/history.ts) shared by this worker's jobs.
  const historyCache: HistoryCache = new Map();
  const i = argv.indexOf('--concurrency');
  const concurrency = i >= 0 ? Number(argv[i + 1]) : config.concurrency;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64) throw new UsageError(`--concurrency ${argv[i + 1] ?? ''} is not a whole number from 1 to 64`);
  const unknown = argv.filter((a, k) => a.startsWith('-') && a !== '--concurrency' && k !== i + 1);
  if (unknown.length) throw new UsageError(`unknown option ${unknown[0]}: run "redline worker --help"`);
  if (!config.redisUrl) throw new UsageError('REDIS_URL is not set: `redline worker` takes its jobs from Redis (without it, the App runs them itself)');
  if (!env.APP_ID) throw new UsageError('APP_ID is not set: the worker authenticates as the GitHub App (APP_ID and PRIVATE_KEY or PRIVATE_KEY_PATH, as for `npm start`)');

  // Probot's Octokit (retries, throttling), with two changes: a spent primary quota is waited out here
  // only when it resets within a minute (Probot's default waits out any reset, up to three times,
  // holding the worker's slot; longer waits go back to the queue, which retries after the reset), and
  // REDLINE_GITHUB_THROTTLE=off drops the write spacing for a local GitHub (tests, bench:load).
  const Octokit = ProbotOctokit.defaults((o: Record<string, any>) => ({ // eslint-disable-line @typescript-eslint/no-explicit-any
    ...o,
    throttle: {
      ...o.throttle,
      ...(env.REDLINE_GITHUB_THROTTLE === 'off' ? { enabled: false } : {}),
      onRateLimit: (retryAfter: number, options: { request: { retryCount: number } }) => retryAfter <= MAX_RESET_WAIT_S && options.request.retryCount < 1,
    },
  }));
  let probot;
  try {
    probot = createProbot({ env, overrides: { Octokit, logLevel: (env.LOG_LEVEL as 'info') || 'info' } });
  } catch (e) {
    throw new UsageError(`cannot set up the GitHub App client: ${(e as Error).message} (check APP_ID and PRIVATE_KEY / PRIVATE_KEY_PATH)`);
  }
  await probot.ready(); // Probot 14 sets up its logger and Octokit asynchronously
  const log = probot.log;
  const isOurs = lazyIsOurs(probot);
  // Dead letters and counts for the status page live in Redis; this handle only adds a command's follow-up jobs.
  const producer = new RedisQueue<Task>({ url: config.redisUrl });
  const service = new RedlineService(serviceOptionsFromEnv(env), { queueDepth: async () => 0, auth: (id) => probot.auth(id) as Promise<GitHub>, isOurs, webhookSecret: env.WEBHOOK_SECRET, warn: (m) => log.warn(m) });
  const feed = new RedisOutcomeFeed(config.redisUrl);
  const lockDurationMs = ms(env, 'REDLINE_WORKER_LOCK_MS');
  const backoffMs = ms(env, 'REDLINE_RETRY_BACKOFF_MS');
  // A local GitHub only (bench:load, like REDLINE_GITHUB_THROTTLE=off): every wait of the GitHub client
  // (rate limits, 5xx backoff) and of the log fetch capped at this many ms, as the embedded App's tests do.
  const maxWaitMs = ms(env, 'REDLINE_GITHUB_MAX_WAIT_MS');
  const capped = maxWaitMs ? { sleep: (t: number) => new Promise<void>((r) => setTimeout(r, Math.min(t, maxWaitMs))) } : undefined;
  const worker = new RedisWorker<Task>({
    url: config.redisUrl,
    concurrency,
    ...(lockDurationMs ? { lockDurationMs } : {}),
    ...(backoffMs ? { backoffMs } : {}),
    run: async (job, { attempt }) => {
      log.info({ job: job.id, attempt, pid: process.pid }, 'redline: job started');
      await runTask(job.task, {
        auth: (id) => probot.auth(id) as Promise<GitHub>,
        cacheDir: config.cacheDir,
        isOurs,
        enqueue: (j) => producer.add(j),
        artifacts: service.artifactsFor,
        historyCache,
        ...(capped ? { resilience: capped, logFetch: capped } : {}),
        onOutcome: (out, job) => {
          const diagnosis = recentOf(out, job);
          if (diagnosis) feed.push({ diagnosis, installationId: job.installationId }).catch((e: unknown) => log.warn({ err: e }, 'redline: outcome not shared with the App'));
        },
        log: (fields, msg) => log.info({ ...fields, pid: process.pid }, msg),
      });
      log.info({ job: job.id, attempt, pid: process.pid }, 'redline: job finished');
    },
    onError: (e, job, info) => log[info.dead ? 'error' : 'warn']({ err: e, job: job.id, attempt: info.attempt }, info.dead ? 'redline: job failed for good (dead-lettered)' : 'redline: job failed, will retry'),
  });
  await worker.ready();
  log.info({ pid: process.pid, concurrency }, 'redline worker: taking jobs');
  io.stdout.write(`redline worker ${process.pid}: taking jobs (concurrency ${concurrency})\n`);
  await new Promise<void>((resolve) => {
    const stop = (): void => resolve();
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
    opts.signal?.addEventListener('abort', stop, { once: true });
  });
  log.info({ pid: process.pid }, 'redline worker: stopping after the running jobs');
  await worker.close();
  await producer.close();
  feed.close();
  return 0;
}
