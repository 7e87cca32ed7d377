import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { InProcessQueue } from '../../src/queue/in-process.js';
import type { QueuedJob, RunJob } from '../../src/queue/queue.js';

const tick = (ms = 5): Promise<void> => new Promise((r) => setTimeout(r, ms));
const dirs: string[] = [];
const tempDb = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'redline-queue-'));
  dirs.push(d);
  return join(d, 'queue.sqlite');
};
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

const job = (id: string, key: string, task: unknown = { id }): QueuedJob => ({ id, key, task });

describe('InProcessQueue', () => {
  it('runs at most `concurrency` jobs at once', async () => {
    let running = 0;
    let peak = 0;
    const q = new InProcessQueue({ concurrency: 2, run: async () => { running++; peak = Math.max(peak, running); await tick(); running--; } });
    for (let i = 0; i < 6; i++) await q.add(job(`d${i}`, `pr${i}`));
    expect((await q.counts()).waiting + (await q.counts()).running).toBe(6);
    await q.idle();
    expect(peak).toBe(2);
    expect(await q.counts()).toEqual({ waiting: 0, running: 0, dead: 0 });
    await q.close();
  });

  it('runs jobs of one key one at a time, in arrival order, while other keys proceed', async () => {
    const log: string[] = [];
    const q = new InProcessQueue({ concurrency: 4, run: async (j) => { log.push(`start ${j.id}`); await tick(); log.push(`end ${j.id}`); } });
    await q.add(job('a1', 'A'));
    await q.add(job('a2', 'A'));
    await q.add(job('b1', 'B'));
    await q.idle();
    expect(log.indexOf('end a1')).toBeLessThan(log.indexOf('start a2'));
    expect(log.indexOf('start b1')).toBeLessThan(log.indexOf('end a1'));
    await q.close();
  });

  it('drops a delivery id it has seen (GitHub redelivers with the same GUID), also after the job is done', async () => {
    let runs = 0;
    const q = new InProcessQueue({ run: async () => { runs++; } });
    expect(await q.add(job('same-guid', 'k'))).toBe(true);
    await q.idle();
    expect(await q.add(job('same-guid', 'k'))).toBe(false);
    await q.idle();
    expect(runs).toBe(1);
    await q.close();
  });

  it('forgets delivery ids after `rememberMs`', async () => {
    let now = 1_000_000;
    const path = tempDb();
    const q1 = new InProcessQueue({ path, rememberMs: 1_000, now: () => now, run: async () => {} });
    await q1.add(job('old', 'k'));
    await q1.idle();
    await q1.close();
    now += 5_000;
    const q2 = new InProcessQueue({ path, rememberMs: 1_000, now: () => now, run: async () => {} });
    expect(await q2.add(job('old', 'k'))).toBe(true);
    await q2.idle();
    await q2.close();
  });

  it('retries a failing job with backoff, keeps the key\'s later jobs behind it, and dead-letters it when the attempts are spent', async () => {
    const order: string[] = [];
    const errors: { attempt: number; dead: boolean }[] = [];
    const run: RunJob = async (j, { attempt }) => {
      order.push(`${j.id}#${attempt}`);
      if (j.id === 'bad') throw new Error(`GitHub answered 502 (token ghp_x7Kq9vLm2Pz4Rt8Wn3Yb6Hc1Jd5Fg0Se2Uab)`);
      if (j.id === 'flaky' && attempt < 2) throw new Error('socket hang up');
    };
    const q = new InProcessQueue({ run, attempts: 3, backoffMs: 5, onError: (_e, _j, info) => errors.push(info) });
    await q.add(job('flaky', 'A'));
    await q.add(job('after-flaky', 'A'));
    await q.add(job('bad', 'B'));
    await q.idle();
    expect(order.filter((o) => o.startsWith('flaky') || o.startsWith('after'))).toEqual(['flaky#1', 'flaky#2', 'after-flaky#1']);
    expect(order.filter((o) => o.startsWith('bad'))).toEqual(['bad#1', 'bad#2', 'bad#3']);
    expect(errors.filter((e) => e.dead)).toHaveLength(1);
    const dead = await q.deadLetters();
    expect(dead).toHaveLength(1);
    expect(dead[0]).toMatchObject({ id: 'bad', key: 'B', attempts: 3 });
    expect(dead[0]!.error).toMatch(/502/);
    expect(dead[0]!.error).not.toMatch(/x7Kq9vLm2Pz4/); // the error line is redacted
    expect(await q.counts()).toEqual({ waiting: 0, running: 0, dead: 1 });
    await q.close();
  });

  it('a job of unknown shape (queued by a newer Redline) is dead-lettered, not a crash', async () => {
    const q = new InProcessQueue({ attempts: 1, run: async (j) => { if ((j.task as { kind?: string }).kind !== 'known') throw new Error('unknown task kind'); } });
    await q.add(job('x', 'k', { kind: 'from-the-future' }));
    await q.idle();
    expect(await q.deadLetters()).toHaveLength(1);
    await q.close();
  });

  it('one process owns a queue file: a second one is refused with a message that says what to do', async () => {
    const path = tempDb();
    const q = new InProcessQueue({ path, run: async () => {} });
    expect(() => new InProcessQueue({ path, run: async () => {} })).toThrow(/in use by another Redline process.*REDIS_URL/);
    await q.close();
  });
});

/** A child process that queues jobs in a file and runs them slowly; killed with SIGKILL mid-job. */
const CHILD = `
import { InProcessQueue } from ${JSON.stringify(new URL('../../dist/queue/in-process.js', import.meta.url).href)};
const [path, mode] = process.argv.slice(1); // node -e: the arguments follow the executable
const q = new InProcessQueue({ path, concurrency: 1, run: async (j) => { process.stdout.write('start ' + j.id + '\\n'); await new Promise((r) => setTimeout(r, 60_000)); } });
if (mode === 'add') for (const id of ['a', 'b', 'c']) await q.add({ id, key: 'pr-1', task: { id } });
process.stdout.write('added\\n');
`;

describe('InProcessQueue across a crash (SQLite file)', () => {
  it('a restart resumes: the job running at the kill runs again, waiting ones run, and delivery ids are still remembered', async () => {
    const path = tempDb();
    const child = spawn(process.execPath, ['--input-type=module', '-e', CHILD, path, 'add'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (b: Buffer) => { out += b; if (out.includes('start a') && out.includes('added')) resolve(); });
      child.on('exit', (code) => reject(new Error(`the child exited (${code}) before starting a job: ${out}`)));
    });
    child.kill('SIGKILL');
    await new Promise((r) => child.on('exit', r));

    const ran: string[] = [];
    const q = new InProcessQueue({ path, concurrency: 1, run: async (j) => { ran.push(j.id); } });
    expect(await q.add({ id: 'b', key: 'pr-1', task: {} })).toBe(false); // a redelivery after the restart
    await q.idle();
    expect(ran).toEqual(['a', 'b', 'c']);
    expect(await q.counts()).toEqual({ waiting: 0, running: 0, dead: 0 });
    await q.close();
  });
});
