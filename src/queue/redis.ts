/**
 * Scale-out queue: with REDIS_URL set, the App only adds jobs to a BullMQ queue on Redis and
 * `redline worker` processes (several per machine, several machines) run them.
 *
 * BullMQ gives durability, retries with backoff and stalled-job recovery (a worker killed mid-job
 * loses its lock and another worker takes the job again). Two things it does not give in its open
 * source edition are added here:
 *
 * - Per-key order (one commit of one PR: its comments must not race). Each job is registered in a
 *   sorted set of its key, scored by a global counter, by the producer right after adding it (or, if
 *   the producer died in between, by the first worker that sees it). A worker runs a job only while it
 *   is the lowest of its key's set; otherwise the job is put back as delayed for a moment. The set
 *   entry is removed when the job completes or is dead-lettered, so the next job of the key may run.
 * - A dead-letter list: a job whose retries are spent is pushed, with its last error, onto a capped
 *   list the status page shows (BullMQ's own failed set keeps the job itself).
 *
 * Delivery ids are remembered for GitHub's three-day redelivery window in their own keys.
 */
import { createHash } from 'node:crypto';
import { DelayedError, Queue, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { backoffMs as backoffFor, DEFAULT_ATTEMPTS, DEFAULT_BACKOFF_MS, errorLine, type DeadLetter, type JobQueue, type QueueCounts, type QueuedJob, type RunJob } from './queue.js';

export const QUEUE_NAME = 'redline';
/** Three days: GitHub's redelivery window. */
const REMEMBER_S = 3 * 86_400;
/** Dead letters kept. */
const DEAD_MAX = 1_000;
/** How long a job blocked behind an earlier job of its key waits before it looks again. */
const GATE_DELAY_MS = 250;
/** GitHub waits 10 s for the webhook answer: an unreachable Redis must fail the delivery before that. */
const ADD_TIMEOUT_MS = 8_000;

interface Keys {
  order: string;
  pending: (key: string) => string;
  delivery: (id: string) => string;
  dead: string;
}

const keysFor = (prefix: string): Keys => ({
  order: `${prefix}:order`,
  pending: (key) => `${prefix}:pending:${sha1(key)}`,
  delivery: (id) => `${prefix}:delivery:${sha1(id)}`,
  dead: `${prefix}:dead`,
});

const sha1 = (s: string): string => createHash('sha1').update(s).digest('hex');
/** BullMQ job ids must not be plain integers and are used in Redis keys: a hash is neither. */
export const bullId = (id: string): string => `j${sha1(id)}`;

/** Registers a job in its key's set if it is not there yet; answers the set's lowest member. */
const REGISTER = `
if not redis.call('ZSCORE', KEYS[2], ARGV[1]) then
  redis.call('ZADD', KEYS[2], redis.call('INCR', KEYS[1]), ARGV[1])
end
local first = redis.call('ZRANGE', KEYS[2], 0, 0)
return first[1]
`;

export interface RedisQueueOptions {
  url: string;
  /** Key prefix (tests use their own). */
  prefix?: string;
  /** Runs of a job before it is dead-lettered (default 4); the waits between are the workers' (backoffMs). */
  attempts?: number;
}

interface Data<T> {
  id: string;
  key: string;
  task: T;
}

/** A Redis connection that gives up on a command instead of holding a webhook while Redis is away. */
function producerConnection(url: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: 1, connectTimeout: 5_000, lazyConnect: false });
}

/** The App's side: adds jobs, answers counts and dead letters. */
export class RedisQueue<T = unknown> implements JobQueue<T> {
  private readonly redis: Redis;
  private readonly queue: Queue;
  private readonly keys: Keys;
  private readonly attempts: number;

  constructor(opts: RedisQueueOptions) {
    const prefix = opts.prefix ?? 'redline';
    this.keys = keysFor(prefix);
    this.redis = producerConnection(opts.url);
    this.redis.on('error', () => {}); // surfaced by the command that fails; not an unhandled 'error' event
    this.queue = new Queue(QUEUE_NAME, { connection: this.redis, prefix: `${prefix}:bull` });
    this.queue.on('error', () => {});
    this.attempts = Math.max(1, opts.attempts ?? DEFAULT_ATTEMPTS);
  }

  async add(job: QueuedJob<T>): Promise<boolean> {
    return withTimeout(this.addNow(job), ADD_TIMEOUT_MS, 'Redis did not answer in time: the delivery fails and GitHub can redeliver it');
  }

  private async addNow(job: QueuedJob<T>): Promise<boolean> {
    const seen = await this.redis.set(this.keys.delivery(job.id), '1', 'EX', REMEMBER_S, 'NX');
    if (seen !== 'OK') return false;
    try {
      const id = bullId(job.id);
      await this.queue.add('job', { id: job.id, key: job.key, task: job.task } satisfies Data<T>, {
        jobId: id,
        attempts: this.attempts,
        // BullMQ's exponential backoff doubles; ours quadruples from the same base (30 s, 2 min, 8 min).
        backoff: { type: 'redline' },
        removeOnComplete: { count: 1_000 },
        removeOnFail: { count: DEAD_MAX },
      });
      await this.redis.eval(REGISTER, 2, this.keys.order, this.keys.pending(job.key), id);
      return true;
    } catch (e) {
      // Not queued: forget the delivery so GitHub's redelivery is taken (best effort; Redis may be gone).
      await this.redis.del(this.keys.delivery(job.id)).catch(() => {});
      throw e;
    }
  }

  async counts(): Promise<QueueCounts> {
    const c = await this.queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'paused');
    return { waiting: (c.waiting ?? 0) + (c.delayed ?? 0) + (c.prioritized ?? 0) + (c.paused ?? 0), running: c.active ?? 0, dead: await this.redis.llen(this.keys.dead) };
  }

  async deadLetters(limit = 20): Promise<DeadLetter[]> {
    return (await this.redis.lrange(this.keys.dead, 0, limit - 1)).map((s) => JSON.parse(s) as DeadLetter);
  }

  /** Resolves when no job is waiting, delayed or running anywhere (tests, benchmarks, draining). */
  async idle(): Promise<void> {
    for (;;) {
      const c = await this.counts();
      if (c.waiting + c.running === 0) return;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async close(): Promise<void> {
    await this.queue.close();
    this.redis.disconnect();
  }
}

export interface RedisWorkerOptions<T> {
  url: string;
  prefix?: string;
  run: RunJob<T>;
  concurrency?: number;
  /** First retry wait; quadruples (must match the App's; default 30 s). */
  backoffMs?: number;
  /** How long a job's lock lasts without renewal: a killed worker's job is taken again after about this long (default 30 s). */
  lockDurationMs?: number;
  /** Stalls (lock lapsed: worker killed, or its event loop blocked past the lock) before BullMQ gives a job up (default 2). */
  maxStalledCount?: number;
  onError?: (error: unknown, job: QueuedJob<T>, info: { attempt: number; dead: boolean }) => void;
}

/** A worker's side: takes jobs in per-key order, runs them, dead-letters what keeps failing. */
export class RedisWorker<T = unknown> {
  private readonly redis: Redis;
  private readonly queue: Queue;
  private readonly worker: Worker;
  private readonly blocking: Redis;
  private readonly keys: Keys;

  constructor(private readonly opts: RedisWorkerOptions<T>) {
    const prefix = opts.prefix ?? 'redline';
    this.keys = keysFor(prefix);
    // Workers wait for Redis as long as it takes (BullMQ requires maxRetriesPerRequest: null here).
    this.redis = new Redis(opts.url, { maxRetriesPerRequest: null });
    this.redis.on('error', () => {});
    this.queue = new Queue(QUEUE_NAME, { connection: this.redis, prefix: `${prefix}:bull` });
    this.queue.on('error', () => {});
    const lockDuration = opts.lockDurationMs ?? 30_000;
    const base = opts.backoffMs ?? DEFAULT_BACKOFF_MS;
    this.blocking = new Redis(opts.url, { maxRetriesPerRequest: null });
    this.blocking.on('error', () => {});
    this.worker = new Worker(QUEUE_NAME, (job, token) => this.process(job as Job<Data<T>>, token), {
      connection: this.blocking,
      prefix: `${prefix}:bull`,
      concurrency: Math.max(1, opts.concurrency ?? 1),
      lockDuration,
      stalledInterval: Math.max(500, Math.floor(lockDuration / 2)),
      // A job whose worker died twice is not retried a third time by the stall check: its normal attempts still apply.
      maxStalledCount: opts.maxStalledCount ?? 2,
      settings: { backoffStrategy: (attemptsMade: number, _type?: string, err?: Error) => backoffFor(base, attemptsMade, err) },
    });
    this.worker.on('error', () => {});
    this.worker.on('failed', (job: Job<Data<T>> | undefined, err: Error) => {
      if (job && job.deferredFailure && err.message === job.deferredFailure) void this.deadLetterGivenUp(job, err.message).catch(() => {});
    });
  }

  /**
   * BullMQ gives up a job that stalled more than `maxStalledCount` times (its lock lapsed: the worker was
   * killed, or its event loop stayed busy past the lock) by failing it at its next pick-up, without running
   * our code: no dead letter, and its key would stay blocked. Record the loss where the status page shows
   * it and free the key.
   */
  private async deadLetterGivenUp(job: Job<Data<T>>, reason: string): Promise<void> {
    const { id, key } = job.data;
    const letter: DeadLetter = { id, key, attempts: job.attemptsMade, error: `${reason}: its worker stopped renewing the job's lock (killed, or busy past REDLINE_WORKER_LOCK_MS)`, at: new Date().toISOString() };
    await this.bury(letter, this.keys.pending(key), job.id!);
  }

  /** Pushes a dead letter (the list stays capped) and frees the job's key, in one transaction. */
  private async bury(letter: DeadLetter, pending: string, bullJobId: string): Promise<void> {
    await this.redis.multi().lpush(this.keys.dead, JSON.stringify(letter)).ltrim(this.keys.dead, 0, DEAD_MAX - 1).zrem(pending, bullJobId).exec();
  }

  /** Resolves once the worker is connected and taking jobs. */
  async ready(): Promise<void> {
    await this.worker.waitUntilReady();
  }

  private async process(job: Job<Data<T>>, token: string | undefined): Promise<void> {
    const { id, key, task } = job.data;
    const pending = this.keys.pending(key);
    for (;;) {
      const first = (await this.redis.eval(REGISTER, 2, this.keys.order, pending, job.id!)) as string | null;
      if (first === job.id) break;
      // The lowest entry may be left over from a job that finished while its worker died: clean it up.
      const state = first ? await this.queue.getJobState(first) : 'unknown';
      if (state === 'completed' || state === 'failed' || state === 'unknown') {
        await this.redis.zrem(pending, first ?? '');
        continue;
      }
      await job.moveToDelayed(Date.now() + GATE_DELAY_MS, token);
      throw new DelayedError();
    }
    const attempt = job.attemptsMade + 1;
    const attempts = job.opts.attempts ?? 1;
    try {
      await this.opts.run({ id, key, task }, { attempt });
    } catch (e) {
      const dead = attempt >= attempts;
      this.opts.onError?.(e, { id, key, task }, { attempt, dead });
      if (dead) {
        const letter: DeadLetter = { id, key, attempts: attempt, error: errorLine(e), at: new Date().toISOString() };
        await this.bury(letter, pending, job.id!);
      }
      throw e;
    }
    await this.redis.zrem(pending, job.id!);
  }

  /** Finishes the running jobs, then disconnects. */
  async close(): Promise<void> {
    await this.worker.close();
    await this.queue.close();
    this.redis.disconnect();
    this.blocking.disconnect();
  }
}

function withTimeout<T>(p: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([p, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)))]).finally(() => clearTimeout(timer));
}
