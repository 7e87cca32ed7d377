/** The Redis (BullMQ) queue against a real redis-server: dedupe, per-key order across workers, retries, dead letters. */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisQueue, RedisWorker } from '../../src/queue/redis.js';
import type { QueuedJob, RunJob } from '../../src/queue/queue.js';
import { skipWithoutRedis, startRedis, type RedisServer } from '../helpers/redis-server.js';

let redis: RedisServer;
let n = 0;
/** Each test its own key prefix: no state leaks between them. */
const prefix = (): string => `t${++n}-${process.pid}`;
const job = (id: string, key: string): QueuedJob => ({ id, key, task: { id } });
const tick = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
/** Waits for a condition; a bound on the wait, not a timing assertion. */
async function until(check: () => boolean | Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await tick(50);
  }
}

describe.skipIf(skipWithoutRedis)('RedisQueue + RedisWorker (real redis-server)', () => {
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it('a delivery id is queued once, also after its job is done', async () => {
    const p = prefix();
    const q = new RedisQueue({ url: redis.url, prefix: p });
    const ran: string[] = [];
    const w = new RedisWorker({ url: redis.url, prefix: p, run: async (j) => { ran.push(j.id); } });
    expect(await q.add(job('guid-1', 'A'))).toBe(true);
    expect(await q.add(job('guid-1', 'A'))).toBe(false);
    await q.idle();
    expect(await q.add(job('guid-1', 'A'))).toBe(false);
    await q.idle();
    expect(ran).toEqual(['guid-1']);
    await w.close();
    await q.close();
  });

  it('two workers: jobs of one key never overlap and run in arrival order; other keys run alongside', async () => {
    const p = prefix();
    const q = new RedisQueue({ url: redis.url, prefix: p });
    const events: string[] = [];
    const active = new Map<string, number>();
    let overlap = 0;
    let parallel = 0;
    let running = 0;
    const run: RunJob = async (j) => {
      running++;
      parallel = Math.max(parallel, running);
      active.set(j.key, (active.get(j.key) ?? 0) + 1);
      if (active.get(j.key)! > 1) overlap++;
      events.push(`${j.key}:${j.id}`);
      await tick(30);
      active.set(j.key, active.get(j.key)! - 1);
      running--;
    };
    const w1 = new RedisWorker({ url: redis.url, prefix: p, run, concurrency: 2 });
    const w2 = new RedisWorker({ url: redis.url, prefix: p, run, concurrency: 2 });
    for (let i = 0; i < 6; i++) for (const key of ['A', 'B', 'C']) await q.add(job(`${key}${i}`, key));
    await q.idle();
    expect(overlap).toBe(0);
    expect(parallel).toBeGreaterThan(1);
    for (const key of ['A', 'B', 'C']) expect(events.filter((e) => e.startsWith(`${key}:`))).toEqual([0, 1, 2, 3, 4, 5].map((i) => `${key}:${key}${i}`));
    await Promise.all([w1.close(), w2.close()]);
    await q.close();
  });

  it('retries with backoff, keeps the key behind the retrying job, and dead-letters when the attempts are spent', async () => {
    const p = prefix();
    const q = new RedisQueue({ url: redis.url, prefix: p, attempts: 3 });
    const order: string[] = [];
    const errors: boolean[] = [];
    const w = new RedisWorker({
      url: redis.url,
      prefix: p,
      backoffMs: 20,
      run: async (j, { attempt }) => {
        order.push(`${j.id}#${attempt}`);
        if (j.id === 'bad') throw new Error('GitHub answered 502');
        if (j.id === 'flaky' && attempt < 2) throw new Error('socket hang up');
      },
      onError: (_e, _j, info) => errors.push(info.dead),
    });
    await q.add(job('flaky', 'A'));
    await q.add(job('after', 'A'));
    await q.add(job('bad', 'B'));
    await q.idle();
    expect(order.filter((o) => !o.startsWith('bad'))).toEqual(['flaky#1', 'flaky#2', 'after#1']);
    expect(order.filter((o) => o.startsWith('bad'))).toEqual(['bad#1', 'bad#2', 'bad#3']);
    expect(errors.filter(Boolean)).toHaveLength(1);
    const dead = await q.deadLetters();
    expect(dead).toHaveLength(1);
    expect(dead[0]).toMatchObject({ id: 'bad', key: 'B', attempts: 3, error: 'GitHub answered 502' });
    expect(await q.counts()).toEqual({ waiting: 0, running: 0, dead: 1 });
    await w.close();
    await q.close();
  });

  it('a job BullMQ gives up for stalling (its worker busy past the lock) becomes a dead letter and frees its key', async () => {
    const p = prefix();
    const q = new RedisQueue({ url: redis.url, prefix: p });
    const ran: string[] = [];
    const opts = { url: redis.url, prefix: p, lockDurationMs: 400, maxStalledCount: 0 };
    // The first run holds its process's event loop past the lock, as a CPU-bound diagnosis on a loaded
    // machine can (a process of its own, as workers are): its lock lapses, and another worker's stall
    // check fails the job (no stalls allowed here).
    const script = `import { RedisWorker } from './dist/queue/redis.js';
new RedisWorker({ ...${JSON.stringify(opts)}, run: async () => { console.log('running'); const end = Date.now() + 3000; while (Date.now() < end); process.exit(0); } });`;
    let out = '';
    const busy = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: join(import.meta.dirname, '../..'), stdio: ['ignore', 'pipe', 'inherit'] });
    busy.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    await q.add(job('slow', 'A'));
    await until(() => out.includes('running'), 15_000);
    const checker = new RedisWorker({ ...opts, run: async (j) => { ran.push(j.id); } });
    await until(async () => (await q.deadLetters()).length === 1, 15_000);
    const [dead] = await q.deadLetters();
    expect(dead).toMatchObject({ id: 'slow', key: 'A' });
    expect(dead!.error).toMatch(/stalled more than allowable limit.*lock/);
    await q.add(job('next', 'A')); // the key is not left blocked behind the lost job
    await until(() => ran.includes('next'), 10_000);
    busy.kill('SIGKILL');
    expect(ran).toEqual(['next']);
    await checker.close();
    await q.close();
  });

  it('an unreachable Redis fails the add within GitHub\'s 10 s webhook timeout, so the delivery can be redelivered', async () => {
    const q = new RedisQueue({ url: 'redis://127.0.0.1:1', prefix: prefix() });
    const t0 = performance.now();
    await expect(q.add(job('x', 'A'))).rejects.toThrow();
    expect(performance.now() - t0).toBeLessThan(10_000);
    await q.close().catch(() => {});
  });
});
