/**
 * The embedded queue: jobs run in this process, and every job is kept in a SQLite file
 * (better-sqlite3) from the moment the webhook is answered until it is done, so a restart resumes
 * the work: a job that was running when the process died runs again (the handlers are idempotent:
 * a diagnosis finds and edits its own comment by fingerprint), waiting ones run, and delivery ids
 * stay remembered so a redelivery after the restart is still a duplicate. `path: ':memory:'` keeps
 * the same rules without the file (tests, and a deliberate REDLINE_QUEUE_DB=:memory:).
 *
 * One process owns a file (SQLite's exclusive locking mode): a second App on the same file gets a
 * clear error instead of running every job twice. Several processes share work through Redis.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { UsageError } from '../errors.js';
import { backoffMs, DEFAULT_ATTEMPTS, DEFAULT_BACKOFF_MS, errorLine, type DeadLetter, type JobQueue, type QueueCounts, type QueuedJob, type RunJob } from './queue.js';

export interface InProcessQueueOptions<T> {
  /** The SQLite file (created with its folder), or ':memory:' (default). */
  path?: string;
  /** Runs a job (the door's task runner). */
  run: RunJob<T>;
  /** Jobs running at once (each holds a log and a checkout in flight). */
  concurrency?: number;
  /** Runs of a job before it is dead-lettered (default 4). */
  attempts?: number;
  /** First retry wait; quadruples (default 30 s). */
  backoffMs?: number;
  /** How long delivery ids are remembered (GitHub lets people redeliver for 3 days). */
  rememberMs?: number;
  /** Called with a job's error (the App logs it); the queue never throws into the webhook handler. */
  onError?: (error: unknown, job: QueuedJob<T>, info: { attempt: number; dead: boolean }) => void;
  now?: () => number;
}

/** Default jobs at once: diagnosis is mostly I/O and ripgrep, a few in parallel keep one core busy. */
export const DEFAULT_CONCURRENCY = 4;
/** Three days: GitHub's redelivery window. */
export const DEFAULT_REMEMBER_MS = 3 * 86_400_000;
/** Dead letters kept. */
const DEAD_MAX = 1_000;
/** Jobs looked at per scheduling pass: enough to find a free key behind a busy PR's backlog. */
const SCAN = 1_000;

interface Row {
  seq: number;
  id: string;
  key: string;
  task: string | null;
  attempts: number;
  run_after: number;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS jobs (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  key TEXT NOT NULL,
  task TEXT,
  state TEXT NOT NULL CHECK (state IN ('waiting', 'running', 'done', 'dead')),
  attempts INTEGER NOT NULL DEFAULT 0,
  run_after INTEGER NOT NULL DEFAULT 0,
  error TEXT,
  created INTEGER NOT NULL,
  updated INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS jobs_state ON jobs (state, seq);
CREATE INDEX IF NOT EXISTS jobs_updated ON jobs (state, updated);
`;

export class InProcessQueue<T = unknown> implements JobQueue<T> {
  private readonly db: Database.Database;
  private readonly busyKeys = new Set<string>();
  private running = 0;
  private closed = false;
  private timer: NodeJS.Timeout | undefined;
  private forgetTimer: NodeJS.Timeout | undefined;
  private idleWaiters: (() => void)[] = [];
  private readonly opts: Required<Omit<InProcessQueueOptions<T>, 'onError'>> & Pick<InProcessQueueOptions<T>, 'onError'>;
  private readonly stmt;

  constructor(opts: InProcessQueueOptions<T>) {
    this.opts = {
      path: ':memory:',
      concurrency: DEFAULT_CONCURRENCY,
      attempts: DEFAULT_ATTEMPTS,
      backoffMs: DEFAULT_BACKOFF_MS,
      rememberMs: DEFAULT_REMEMBER_MS,
      now: Date.now,
      ...opts,
    };
    this.opts.concurrency = Math.max(1, this.opts.concurrency);
    this.opts.attempts = Math.max(1, this.opts.attempts);
    this.db = openDatabase(this.opts.path);
    this.stmt = {
      insert: this.db.prepare('INSERT OR IGNORE INTO jobs (id, key, task, state, created, updated) VALUES (?, ?, ?, \'waiting\', ?, ?)'),
      scan: this.db.prepare(`SELECT seq, id, key, task, attempts, run_after FROM jobs WHERE state = 'waiting' ORDER BY seq LIMIT ${SCAN}`),
      start: this.db.prepare("UPDATE jobs SET state = 'running', attempts = attempts + 1, updated = ? WHERE seq = ?"),
      done: this.db.prepare("UPDATE jobs SET state = 'done', task = NULL, error = NULL, updated = ? WHERE seq = ?"),
      retry: this.db.prepare("UPDATE jobs SET state = 'waiting', run_after = ?, error = ?, updated = ? WHERE seq = ?"),
      dead: this.db.prepare("UPDATE jobs SET state = 'dead', error = ?, updated = ? WHERE seq = ?"),
      counts: this.db.prepare('SELECT state, COUNT(*) AS n FROM jobs GROUP BY state'),
      dead_list: this.db.prepare("SELECT id, key, attempts, error, updated FROM jobs WHERE state = 'dead' ORDER BY updated DESC LIMIT ?"),
      forget: this.db.prepare("DELETE FROM jobs WHERE state = 'done' AND updated < ?"),
      // Dead letters are for a person to read: the newest thousand are kept.
      forgetDead: this.db.prepare(`DELETE FROM jobs WHERE state = 'dead' AND seq NOT IN (SELECT seq FROM jobs WHERE state = 'dead' ORDER BY seq DESC LIMIT ${DEAD_MAX})`),
      anyWaiting: this.db.prepare("SELECT 1 FROM jobs WHERE state = 'waiting' LIMIT 1"),
    };
    // The process that was running these is gone (the file is ours alone): they run again.
    this.db.prepare("UPDATE jobs SET state = 'waiting', run_after = 0 WHERE state = 'running'").run();
    this.forget();
    queueMicrotask(() => this.pump());
  }

  async add(job: QueuedJob<T>): Promise<boolean> {
    if (this.closed) throw new Error('the queue is closed');
    const now = this.opts.now();
    // INSERT OR IGNORE on the unique id: a delivery seen in the last three days is not queued again.
    const added = this.stmt.insert.run(job.id, job.key, JSON.stringify(job.task), now, now).changes === 1;
    if (added) this.pump();
    return added;
  }

  async counts(): Promise<QueueCounts> {
    const c: QueueCounts = { waiting: 0, running: 0, dead: 0 };
    for (const r of this.stmt.counts.all() as { state: string; n: number }[]) if (r.state in c) c[r.state as keyof QueueCounts] = r.n;
    return c;
  }

  async deadLetters(limit = 20): Promise<DeadLetter[]> {
    return (this.stmt.dead_list.all(limit) as { id: string; key: string; attempts: number; error: string | null; updated: number }[]).map((r) => ({
      id: r.id,
      key: r.key,
      attempts: r.attempts,
      error: r.error ?? '',
      at: new Date(r.updated).toISOString(),
    }));
  }

  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.forgetTimer);
    while (this.running > 0) await new Promise<void>((r) => this.idleWaiters.push(r));
    if (this.db.open) this.db.close();
  }

  private isIdle(): boolean {
    if (this.running > 0) return false;
    if (this.closed) return true;
    return !this.stmt.anyWaiting.get();
  }

  /** Starts what may start: a free slot, the oldest waiting job of each key, and only when its key is not running. */
  private pump(): void {
    if (this.closed) return this.wakeIdle();
    clearTimeout(this.timer);
    const now = this.opts.now();
    let nextWake = Infinity;
    const seenKeys = new Set<string>();
    for (const row of this.stmt.scan.all() as Row[]) {
      if (this.running >= this.opts.concurrency) break;
      // A key's jobs keep their order: a later job waits behind an earlier one that is backing off.
      const first = !seenKeys.has(row.key);
      seenKeys.add(row.key);
      if (!first || this.busyKeys.has(row.key)) continue;
      if (row.run_after > now) {
        nextWake = Math.min(nextWake, row.run_after);
        continue;
      }
      this.start(row);
    }
    if (nextWake < Infinity) this.timer = setTimeout(() => this.pump(), Math.max(1, nextWake - now)).unref();
    this.wakeIdle();
  }

  private start(row: Row): void {
    const now = this.opts.now();
    this.stmt.start.run(now, row.seq);
    const attempt = row.attempts + 1;
    this.running++;
    this.busyKeys.add(row.key);
    const job: QueuedJob<T> = { id: row.id, key: row.key, task: JSON.parse(row.task ?? 'null') as T };
    void Promise.resolve()
      .then(() => this.opts.run(job, { attempt }))
      .then(
        () => this.settle(() => this.stmt.done.run(this.opts.now(), row.seq)),
        (e: unknown) => {
          const dead = attempt >= this.opts.attempts;
          this.opts.onError?.(e, job, { attempt, dead });
          this.settle(() => {
            if (dead) this.stmt.dead.run(errorLine(e), this.opts.now(), row.seq);
            else this.stmt.retry.run(this.opts.now() + backoffMs(this.opts.backoffMs, attempt, e), errorLine(e), this.opts.now(), row.seq);
          });
        },
      )
      .finally(() => {
        this.running--;
        this.busyKeys.delete(row.key);
        this.pump();
      });
  }

  /** Records a job's end; after close() the file is shut, and a restart re-runs what could not be recorded. */
  private settle(write: () => void): void {
    if (this.db.open) write();
  }

  private wakeIdle(): void {
    if (this.idleWaiters.length && this.isIdle()) this.idleWaiters.splice(0).forEach((r) => r());
  }

  /** Done jobs are kept as the dedupe memory for `rememberMs`, then dropped (the task text is gone already). */
  private forget(): void {
    const prune = (): void => {
      if (!this.db.open) return;
      this.stmt.forget.run(this.opts.now() - this.opts.rememberMs);
      this.stmt.forgetDead.run();
    };
    prune();
    this.forgetTimer = setInterval(prune, 3_600_000).unref();
  }
}

/** Opens (or creates) the queue file, owned by this process alone; WAL so each write is one fsync'd append. */
function openDatabase(path: string): Database.Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  let db: Database.Database;
  try {
    db = new Database(path, { timeout: 0 });
    db.pragma('journal_mode = WAL');
    db.pragma('locking_mode = EXCLUSIVE');
    db.pragma('synchronous = NORMAL');
    db.exec(SCHEMA);
  } catch (e) {
    const busy = /SQLITE_BUSY|database is locked/i.test(String((e as Error).message));
    throw new UsageError(
      busy
        ? `the queue file ${path} is in use by another Redline process: give each App its own REDLINE_QUEUE_DB, or share the work through REDIS_URL and \`redline worker\``
        : `cannot open the queue file ${path}: ${(e as Error).message} (set REDLINE_QUEUE_DB to a writable path)`,
    );
  }
  return db;
}
