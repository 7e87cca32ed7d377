/**
 * Scale-out for real: the App (Probot) queues to a real redis-server, two `redline worker` child
 * processes (started as users start them: `node dist/bin/redline.js worker`, configured by the
 * environment) take the jobs from it, and one worker is killed with SIGKILL in the middle of a job and
 * started again. Every failure must end with exactly one comment: the killed job is taken over after
 * its lock expires and its second run finds nothing posted twice (fingerprints).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { deliver } from '../helpers/fake-github/index.js';
import { skipWithoutRedis, startRedis, type RedisServer } from '../helpers/redis-server.js';
import { RECEIPT_EDIT, FIXTURE, REPO, SECRET, fixtureTarball, headFiles, patchFiles, startHarness, workflowJobPayload, type Harness } from './e2e-helpers.js';

const ROOT = join(import.meta.dirname, '../..');
const LOG = readFileSync(join(FIXTURE, 'log.txt'), 'utf8');
/** ~20 MB of passing-test noise ahead of the real failure: a job that takes long enough to be killed in. */
const BIG_LOG = `${'2026-11-29T10:00:00.0000000Z ok 1 - renders the receipt header with the invoice number and the date\n'.repeat(200_000)}${LOG}`;
const PRS = 6;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
async function until(check: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

let redis: RedisServer | undefined;
let h: Harness | undefined;
const workers: ChildProcess[] = [];
const dirs: string[] = [];

afterAll(async () => {
  for (const w of workers) if (w.exitCode === null) w.kill('SIGKILL');
  await h?.close();
  await redis?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

interface Worker {
  child: ChildProcess;
  output: () => string;
}

function startWorker(name: string): Worker {
  const cache = mkdtempSync(join(tmpdir(), `redline-worker-${name}-`));
  dirs.push(cache);
  let out = '';
  const child = spawn(process.execPath, [join(ROOT, 'dist/bin/redline.js'), 'worker', '--concurrency', '2'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: cache,
      REDIS_URL: redis!.url,
      APP_ID: String(h!.fake.state.app.id),
      PRIVATE_KEY: h!.privateKey,
      WEBHOOK_SECRET: SECRET,
      GHE_HOST: h!.fake.host,
      GHE_PROTOCOL: 'http',
      REDLINE_CACHE_DIR: cache,
      REDLINE_GITHUB_THROTTLE: 'off',
      // Long enough that a live worker keeps its lock while a diagnosis holds its event loop on a loaded CI
      // machine (2 s was not: jobs were taken from live workers until BullMQ gave one up), short enough
      // that the killed worker's job is taken over within the test.
      REDLINE_WORKER_LOCK_MS: '10000',
      REDLINE_RETRY_BACKOFF_MS: '200',
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  workers.push(child);
  return { child, output: () => out };
}

const jobsSaying = (w: Worker, what: 'started' | 'finished' | 'failed'): string[] => [...w.output().matchAll(new RegExp(`"job":"([^"]+)"[^\\n]*"msg":"redline: job ${what}`, 'g'))].map((m) => m[1]!);
/** Every run a live worker started has ended (finished or failed): nothing is still on its way to GitHub. */
const settled = (ws: Worker[]): boolean => ws.every((w) => jobsSaying(w, 'started').length === jobsSaying(w, 'finished').length + jobsSaying(w, 'failed').length);
const startedJobs = (w: Worker): string[] => jobsSaying(w, 'started');

describe.skipIf(skipWithoutRedis)('Redis queue: the App and two workers, one killed mid-job', () => {
  it('every failure ends with exactly one comment; nothing lost, nothing twice', async () => {
    redis = await startRedis();
    h = await startHarness({ redisUrl: redis.url, statusToken: 'status-token' });
    const files = headFiles();
    const payloads: unknown[] = [];
    for (let i = 0; i < PRS; i++) {
      const sha = `${(0xc0ffee + i).toString(16)}`.padEnd(40, '2');
      h.fake.repo(REPO).tarballs[sha] = fixtureTarball(sha, files);
      h.fake.addPull(REPO, { number: 20 + i, head: { ref: `topic-${i}`, sha }, files: [...patchFiles(), RECEIPT_EDIT] });
      // A PR's job runs on the PR's branch (not on main, where its failure would read as the base's).
      const job = h.fake.addJob(REPO, { id: 900 + i, name: 'typecheck', workflow_name: 'CI', head_sha: sha, head_branch: `topic-${i}`, log: BIG_LOG });
      const p = workflowJobPayload(h.fake, job) as { workflow_job: Record<string, unknown> };
      p.workflow_job = { ...p.workflow_job, head_sha: sha };
      payloads.push(p);
    }

    const a = startWorker('a');
    const b = startWorker('b');
    await until(() => /taking jobs/.test(a.output()) && /taking jobs/.test(b.output()), 20_000, 'both workers to start');

    const ids: string[] = [];
    for (const p of payloads) {
      const r = await deliver(h.webhookUrl, 'workflow_job', p, SECRET);
      expect(r.status).toBe(200);
      ids.push(r.id);
    }
    // Redeliveries of two of them (same delivery id): nothing new may come of these.
    for (const k of [0, 1]) expect((await deliver(h.webhookUrl, 'workflow_job', payloads[k], SECRET, { id: ids[k]! })).status).toBe(200);

    // Kill worker A while it holds a job: started, not yet done.
    await until(() => startedJobs(a).length > 0, 30_000, 'worker A to start a job');
    const killedJob = startedJobs(a)[0]!;
    a.child.kill('SIGKILL');
    await new Promise((r) => a.child.once('exit', r));
    expect(jobsSaying(a, 'finished')).not.toContain(killedJob); // it really died mid-job
    const a2 = startWorker('a2');

    await until(async () => {
      const c = await h!.queue.counts();
      return c.waiting + c.running === 0;
    }, 240_000, 'the queue to drain'); // a wait bound, not a timing: a loaded 2-core machine takes long
    await until(() => settled([b, a2]), 60_000, 'the live workers\' runs to end');

    const byPr = (n: number) => h!.fake.repo(REPO).reviewComments.filter((c) => c.pull_number === n);
    for (let i = 0; i < PRS; i++) expect(byPr(20 + i), `PR #${20 + i}`).toHaveLength(1);
    expect(h.fake.repo(REPO).reviewComments).toHaveLength(PRS);
    expect(await h.queue.deadLetters()).toEqual([]);
    // The killed job was run again by a live worker (B or the restarted A).
    const rerun = [...startedJobs(b), ...startedJobs(a2)];
    expect(rerun).toContain(killedJob);
    expect(h.fake.violations).toEqual([]);
    // The workers' diagnoses reach the App's status page (and its feedback tracking) through Redis.
    const status = (await (await fetch(`${h.appUrl}/redline/status?token=status-token`)).json()) as { recent: { pr: number }[]; queueDepth: number };
    expect(new Set(status.recent.map((d) => d.pr))).toEqual(new Set(Array.from({ length: PRS }, (_, i) => 20 + i)));
    expect(status.queueDepth).toBe(0);
    // SIGTERM: a worker finishes what it runs and exits 0 (not lingering on Probot's Redis connections).
    b.child.kill('SIGTERM');
    const code = await Promise.race([new Promise((r) => b.child.once('exit', r)), sleep(10_000).then(() => 'still running')]);
    expect(code).toBe(0);
  }, 360_000);
});
