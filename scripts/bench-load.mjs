// npm run bench:load — the GitHub App under load (issue 7): signed `workflow_job` deliveries on loopback,
// with same-id redeliveries and the seeded fault mix of test/app/fault-mix.e2e.test.ts, against the App
// and the local GitHub, once per queue: embedded (SQLite, jobs run in the App) and Redis with 1, 2 and 4
// `redline worker` processes. Prints figures and writes them to bench-out/load.json. Asserts only
// correctness: it exits 1 when a failure got two comments or none (timing is for reading, not a test).
//
// Processes: this one sends the webhooks and checks the result; the local GitHub (TypeScript, bundled
// on the fly with esbuild into bench-out/) and the App (scripts/bench-load-app.mjs) are children, so the
// App's peak RSS is its own; workers are `node dist/bin/redline.js worker` as users start them; each
// Redis run has its own redis-server on a free port, without persistence.
//
// Options: --jobs N (1000) --prs N (200) --in-flight N (32) --concurrency N (4: diagnoses at once per
// process) --only embedded,redis-1,redis-2,redis-4 --seed N (the fault mix's) --no-faults --cpu-prof DIR.
import { spawn, fork, execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { sign } from '@octokit/webhooks-methods';
import { familyOf, parseFingerprint } from '../dist/report/fingerprint.js';

const ROOT = new URL('..', import.meta.url).pathname;
const OUT = join(ROOT, 'bench-out');
mkdirSync(OUT, { recursive: true });

// ── Settings ──
const argv = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : dflt;
};
const JOBS = Number(opt('jobs', 1000));
const PRS = Number(opt('prs', 200));
const IN_FLIGHT = Number(opt('in-flight', 32));
const CONCURRENCY = Number(opt('concurrency', 4));
/** Same-id redeliveries: 10% of the jobs. */
const DUPLICATES = Math.round(JOBS / 10);
const CONFIGS = [
  { name: 'embedded', label: 'embedded (SQLite)', workers: 0 },
  { name: 'redis-1', label: 'Redis, 1 worker', workers: 1 },
  { name: 'redis-2', label: 'Redis, 2 workers', workers: 2 },
  { name: 'redis-4', label: 'Redis, 4 workers', workers: 4 },
].filter((c) => !opt('only') || opt('only').split(',').includes(c.name));
/** The Redis runs need Debian's `redis-server`, as the queue tests do (test/helpers/redis-server.ts). */
const HAS_REDIS = (() => {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
if (!HAS_REDIS && CONFIGS.some((c) => c.workers)) {
  console.log('redis-server is not installed: the Redis runs are skipped (apt-get install redis-server)');
  for (let i = CONFIGS.length - 1; i >= 0; i--) if (CONFIGS[i].workers) CONFIGS.splice(i, 1);
}
const SECRET = 'bench-webhook-secret';
/** Every wait of the GitHub client (rate limits, 5xx backoff) and of the log fetch, capped: as fastSleep in the fault-mix test. */
const MAX_WAIT_MS = 5;
/** The queues' retry backoff (30 s in production; quadruples): a job that throws is retried after 0.1, 0.4, 1.6 s. */
const RETRY_BACKOFF_MS = 100;
/** test/app/fault-mix.e2e.test.ts's mix, same seed. */
const MIX = {
  seed: Number(opt('seed', 20261129)),
  rates: { serverError: 0.05, serverErrorAfterEffect: 0.08, secondaryRateLimit: 0.03, secondaryNoRetryAfter: 0.02, primaryRateLimit: 0.02, networkReset: 0.03, networkResetAfterEffect: 0.1, logLinkExpired: 0.15 },
};
const FAULTS = !argv.includes('--no-faults');
/**
 * --cpu-prof <dir>: V8 CPU profiles of the App process (embedded: the diagnoses too) and, in <dir>/github,
 * of the local GitHub; workers write theirs to <dir>/workers only if they exit by themselves on SIGTERM.
 */
const CPU_PROF = opt('cpu-prof');

// ── The workload: PRs, jobs, failures ──
function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const FIXTURE = join(ROOT, 'fixtures/logs/tsc-signature-change-call-site');
const BASE_LOG = readFileSync(join(FIXTURE, 'log.txt'), 'utf8');
/**
 * Five different failures of the fixture's commit (different file or message: different fingerprints),
 * as tsc would print them; variant 0 is the recorded log. Lines 15 and 17 of receipt.ts, invoice.ts 22
 * and money.ts 9 are in the PR's diff (review comment on the line; receipt.ts only in the PRs that edit
 * it, else a PR comment); receipt.ts 3 is not (a file-level review comment, or a PR comment).
 */
const FAILURES = [
  null,
  "src/receipt.ts(17,45): error TS2345: Argument of type 'number' is not assignable to parameter of type 'Currency'.",
  "src/invoice.ts(22,99): error TS2339: Property 'currency' does not exist on type 'Invoice'.",
  "src/money.ts(9,3): error TS2322: Type 'string' is not assignable to type 'number'.",
  "src/receipt.ts(3,10): error TS2305: Module './money.js' has no exported member 'formatAmount'.",
];
const LOGS = FAILURES.map((line) =>
  line === null
    ? BASE_LOG
    : BASE_LOG.split('\n')
        .filter((l) => !l.includes('src/receipt.ts(17,45)'))
        .map((l) => (l.includes('src/receipt.ts(15,62)') ? `${l.slice(0, 29)}${line}` : l))
        .join('\n'),
);

/**
 * PRS pull requests, each on its own head commit; JOBS failing jobs spread evenly over them (`CI /
 * typecheck-<k>`, the same job names on every PR, as one workflow gives), each failing with one of the
 * five failures at random (seeded). Two jobs of one PR with the same failure get ONE comment by design
 * (the second finds the first's fingerprint): the expected comments are the distinct (PR, failure)
 * pairs, and every job gets its own `Redline` check run.
 */
function workload() {
  const rnd = mulberry32(7);
  const prs = Array.from({ length: PRS }, (_, i) => ({ number: 100 + i, sha: (0xbe0000 + i).toString(16).padEnd(40, 'a'), touchReceipt: i % 3 !== 2 }));
  const jobs = Array.from({ length: JOBS }, (_, i) => {
    const pr = prs[i % PRS];
    return { id: 50_000 + i, pr: pr.number, sha: pr.sha, workflow: 'CI', name: `typecheck-${Math.floor(i / PRS)}`, variant: Math.floor(rnd() * FAILURES.length), delivery: randomUUID() };
  });
  const shuffled = (xs) => {
    const a = [...xs];
    for (let i = a.length - 1; i > 0; i--) {
      const k = Math.floor(rnd() * (i + 1));
      [a[i], a[k]] = [a[k], a[i]];
    }
    return a;
  };
  // Arrival order: shuffled, so a PR's jobs arrive spread out and interleave with other PRs'.
  const order = shuffled(jobs);
  // Redeliveries (same X-GitHub-Delivery): of DUPLICATES random jobs, each soon after its original (often while it is in flight).
  const sends = order.map((job) => ({ job, duplicate: false }));
  const picked = shuffled(order).slice(0, DUPLICATES);
  for (const job of picked) {
    const at = sends.findIndex((s) => s.job === job && !s.duplicate);
    sends.splice(Math.min(sends.length, at + 1 + Math.floor(rnd() * 3 * IN_FLIGHT)), 0, { job, duplicate: true });
  }
  return { prs, jobs, sends };
}

// ── Processes ──
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A forked child that answers { id, cmd, args } with { id, result | error }. */
function ipcChild(script, { env, args = [], execArgv = [] } = {}) {
  const child = fork(script, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe', 'ipc'], execArgv });
  let next = 0;
  const pending = new Map();
  let readyResolve;
  let readyReject;
  const ready = new Promise((resolve, reject) => {
    readyResolve = resolve;
    readyReject = reject;
  });
  ready.catch(() => {}); // told through `ready` to whoever waits for it
  child.on('message', (m) => {
    if (m.ready) return readyResolve(m);
    const p = pending.get(m.id);
    pending.delete(m.id);
    if (m.error) p?.reject(new Error(m.error));
    else p?.resolve(m.result);
  });
  child.on('exit', (code) => {
    for (const p of pending.values()) p.reject(new Error(`${script} exited (${code})`));
    readyReject(new Error(`${script} exited (${code}) before it was ready`));
  });
  const call = (cmd, a) =>
    new Promise((resolve, reject) => {
      const id = next++;
      pending.set(id, { resolve, reject });
      child.send({ id, cmd, args: a });
    });
  return { child, ready, call };
}

/** Counts the App's and workers' JSON log lines by message (pino: one object per line). */
class LogTally {
  constructor() {
    this.byMsg = {};
    this.byStatus = {};
    this.errors = [];
    this.rest = '';
  }
  feed(chunk) {
    const text = this.rest + chunk.toString();
    const lines = text.split('\n');
    this.rest = lines.pop();
    for (const line of lines) {
      if (!line.startsWith('{')) continue;
      let o;
      try {
        o = JSON.parse(line);
      } catch {
        continue;
      }
      this.byMsg[o.msg] = (this.byMsg[o.msg] ?? 0) + 1;
      if (o.msg === 'redline: job done') {
        const k = o.action ? `${o.status}:${o.action}` : o.status;
        this.byStatus[k] = (this.byStatus[k] ?? 0) + 1;
      }
      if (o.level >= 40 && this.errors.length < 20) this.errors.push(`${o.msg}: ${String(o.err?.message ?? '').slice(0, 200)}`);
    }
  }
  count(msg) {
    return this.byMsg[msg] ?? 0;
  }
}

/** Peak RSS (VmHWM) and CPU seconds of a live process, from /proc. */
function procStats(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const hwm = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cpuS = (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
    return { peakRssMB: Math.round(hwm), cpuS: Math.round(cpuS * 10) / 10 };
  } catch {
    return { peakRssMB: null, cpuS: null };
  }
}
const CLK_TCK = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

async function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

async function startRedis() {
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--loglevel', 'warning'], { stdio: 'ignore' });
  const ping = () =>
    new Promise((resolve) => {
      const s = connect(port, '127.0.0.1');
      s.once('error', () => resolve(false));
      s.once('connect', () => s.write('PING\r\n'));
      s.once('data', (d) => {
        s.destroy();
        resolve(d.toString().startsWith('+PONG'));
      });
    });
  for (let i = 0; !(await ping()); i++) {
    if (i > 100 || child.exitCode !== null) throw new Error(`redis-server did not start on ${port}`);
    await sleep(50);
  }
  return { url: `redis://127.0.0.1:${port}`, child };
}

function startWorker(gh, redisUrl, cacheDir, tally) {
  const prof = CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', join(CPU_PROF, 'workers')] : [];
  const child = spawn(process.execPath, [...prof, join(ROOT, 'dist/bin/redline.js'), 'worker', '--concurrency', String(CONCURRENCY)], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: cacheDir,
      REDIS_URL: redisUrl,
      APP_ID: String(gh.appId),
      PRIVATE_KEY: gh.privateKey,
      WEBHOOK_SECRET: SECRET,
      GHE_HOST: gh.host,
      GHE_PROTOCOL: 'http',
      REDLINE_CACHE_DIR: cacheDir,
      REDLINE_GITHUB_THROTTLE: 'off',
      REDLINE_GITHUB_MAX_WAIT_MS: String(MAX_WAIT_MS),
      REDLINE_RETRY_BACKOFF_MS: String(RETRY_BACKOFF_MS),
      LOG_FORMAT: 'json',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const ready = new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      tally.feed(d);
      if (out.length < 4096) out += d.toString();
      if (/taking jobs/.test(out)) resolve();
    });
    child.stderr.on('data', (d) => (out += d.toString()));
    child.once('exit', (code) => reject(new Error(`worker exited (${code}) before taking jobs:\n${out.slice(-2000)}`)));
  });
  return { child, ready };
}

/** SIGTERM, then SIGKILL after `ms`: 'exited' when it stopped by itself, 'killed' when it had to be killed. */
async function stop(child, ms = 15_000) {
  if (child.exitCode !== null || child.signalCode !== null) return 'exited';
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  if (await Promise.race([exited.then(() => true), sleep(ms).then(() => false)])) return 'exited';
  child.kill('SIGKILL');
  await exited;
  return 'killed';
}

// ── Sending ──
async function send(url, payload, delivery) {
  const body = JSON.stringify(payload);
  const signature = await sign(SECRET, body);
  const t0 = performance.now();
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'GitHub-Hookshot/bench', 'x-github-event': 'workflow_job', 'x-github-delivery': delivery, 'x-github-hook-id': '1', 'x-hub-signature-256': signature },
      body,
    });
    await res.text();
    return { status: res.status, ms: performance.now() - t0 };
  } catch (e) {
    return { status: `error ${e?.cause?.code ?? e?.message}`, ms: performance.now() - t0 };
  }
}

const pct = (xs, p) => {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const round = (x, d = 1) => (x === null || x === undefined ? null : Math.round(x * 10 ** d) / 10 ** d);

// ── One configuration ──
async function runConfig(config, bundle, work) {
  const dirs = [];
  const tmp = (name) => {
    const d = mkdtempSync(join(tmpdir(), `redline-load-${name}-`));
    dirs.push(d);
    return d;
  };
  const gh = ipcChild(bundle, { execArgv: CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', join(CPU_PROF, 'github')] : [] });
  const appTally = new LogTally();
  const workerTally = new LogTally();
  let app;
  let redis;
  const workers = [];
  try {
    await gh.ready;
    const setup = await gh.call('setup', { fixture: FIXTURE, prs: work.prs, jobs: work.jobs, logs: LOGS });
    if (config.workers) redis = await startRedis();
    const appDir = tmp('app');
    app = ipcChild(join(ROOT, 'scripts/bench-load-app.mjs'), {
      execArgv: CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', CPU_PROF] : [],
      env: {
        BENCH_APP: JSON.stringify({
          appId: setup.appId,
          privateKey: setup.privateKey,
          secret: SECRET,
          baseUrl: setup.url,
          cacheDir: join(appDir, 'checkouts'),
          artifactDir: join(appDir, 'artifacts'),
          queueDb: join(appDir, 'queue.sqlite'),
          concurrency: CONCURRENCY,
          redisUrl: redis?.url,
          maxWaitMs: MAX_WAIT_MS,
          retryBackoffMs: RETRY_BACKOFF_MS,
        }),
      },
    });
    app.child.stdout.on('data', (d) => appTally.feed(d));
    let appErr = '';
    app.child.stderr.on('data', (d) => (appErr += d.toString()).length > 8192 && (appErr = appErr.slice(-4096)));
    const { port } = await app.ready;
    const webhookUrl = `http://127.0.0.1:${port}/api/github/webhooks`;
    for (let i = 0; i < config.workers; i++) {
      const w = startWorker(setup, redis.url, tmp(`worker${i}`), workerTally);
      workers.push(w);
    }
    await Promise.all(workers.map((w) => w.ready));
    // What start-up cost (Probot, Redis connections, module loading), apart from the jobs.
    const startCpuS = [app.child.pid, ...workers.map((w) => w.child.pid)].map((pid) => procStats(pid).cpuS);
    if (FAULTS) await gh.call('faults', { mix: MIX });

    // Deliver: IN_FLIGHT senders take the next delivery in order.
    const t0 = performance.now();
    const results = new Array(work.sends.length);
    let next = 0;
    const sender = async () => {
      while (next < work.sends.length) {
        const k = next++;
        const { job } = work.sends[k];
        const payload = structuredClone(setup.payload);
        payload.workflow_job = { ...payload.workflow_job, id: job.id, name: job.name, workflow_name: job.workflow, head_sha: job.sha, html_url: `https://github.com/${setup.repo}/actions/runs/1/job/${job.id}` };
        results[k] = await send(webhookUrl, payload, job.delivery);
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, sender));
    const sentMs = performance.now() - t0;
    const { counts, deadLetters } = await app.call('idle');
    const wallMs = performance.now() - t0;
    // Anything late (a job taken over after a lock expired) would show up here.
    await sleep(1000);
    const after = await app.call('counts');

    const appStats = procStats(app.child.pid);
    const workerStats = workers.map((w) => procStats(w.child.pid));
    const ghStats = procStats(gh.child.pid);
    const redisStats = redis ? procStats(redis.child.pid) : undefined;
    const report = await gh.call('report');
    // The queue is idle: a worker told to stop (SIGTERM) should exit by itself within a few seconds.
    const workerStops = await Promise.all(workers.map((w) => stop(w.child, 5_000)));
    const check = verify(work, report, setup.repo);

    const statuses = {};
    for (const r of results) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    const lat = results.map((r) => r.ms);
    const tally = config.workers ? workerTally : appTally;
    const faultTotal = Object.values(report.faults).reduce((a, b) => a + b, 0);
    return {
      config: config.label,
      deliveries: { sent: results.length, jobs: work.jobs.length, duplicates: work.sends.filter((s) => s.duplicate).length, statuses, inFlight: IN_FLIGHT, p50Ms: round(pct(lat, 50)), p99Ms: round(pct(lat, 99)), maxMs: round(Math.max(...lat)), sendMs: Math.round(sentMs) },
      duplicatesIgnored: appTally.count('redline: duplicate delivery ignored'),
      diagnosesCompleted: tally.count('redline: job done'),
      diagnosisOutcomes: tally.byStatus,
      jobRunsFailed: tally.count('redline: job failed, will retry') + tally.count('redline: job failed for good (dead-lettered)'),
      deadLetters: deadLetters.length,
      deadLetterErrors: deadLetters.slice(0, 5).map((d) => d.error),
      queueAtEnd: { atIdle: counts, oneSecondLater: after },
      ...check,
      wallMs: Math.round(wallMs),
      jobsPerS: round(work.jobs.length / (wallMs / 1000)),
      app: { ...appStats, startCpuS: startCpuS[0] },
      workers: workerStats.map((w, i) => ({ ...w, startCpuS: startCpuS[i + 1], onSigterm: workerStops[i] })),
      localGitHub: ghStats,
      redis: redisStats,
      github: { requests: report.requests, tarballDownloads: report.tarballDownloads, logDownloads: report.logDownloads, faultsInjected: faultTotal, faults: report.faults, violations: report.violations, violationKinds: report.violationKinds, firstViolations: report.firstViolations },
      warnings: [...appTally.errors, ...workerTally.errors].slice(0, 10),
      appStderr: appErr.trim() ? appErr.trim().slice(-1000) : undefined,
    };
  } finally {
    if (app && app.child.exitCode === null) {
      const exited = new Promise((r) => app.child.once('exit', r));
      await Promise.race([app.call('close').then(() => exited, () => {}), sleep(10_000)]);
      await stop(app.child);
    }
    await Promise.all(workers.map((w) => stop(w.child)));
    if (redis) await stop(redis.child, 2_000);
    const ghExited = new Promise((r) => gh.child.once('exit', r));
    await Promise.race([gh.call('close').then(() => ghExited, () => {}), sleep(5_000)]);
    await stop(gh.child);
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
}

/**
 * What GitHub holds, against what is expected: one comment per distinct (PR, failure), one `Redline`
 * check run per job. A comment is traced to its job by its fingerprint's family (repo + job name).
 */
function verify(work, report, repo) {
  const jobsByPrFamily = new Map(work.jobs.map((j) => [`${j.pr}:${familyOf({ repo, job: `${j.workflow} / ${j.name}` })}`, j]));
  const expected = new Set(work.jobs.map((j) => `${j.pr}:${j.variant}`));
  const got = new Map();
  let stray = 0;
  let unmarked = 0;
  const failureOfVariant = new Map();
  let variantClash = 0;
  for (const c of [...report.reviewComments, ...report.issueComments]) {
    const fp = parseFingerprint(c.body);
    if (!fp) {
      unmarked++; // a superseded comment keeps no fingerprint; none are expected here
      continue;
    }
    const job = jobsByPrFamily.get(`${c.pr}:${fp.family}`);
    if (!job) {
      stray++;
      continue;
    }
    const k = `${job.pr}:${job.variant}`;
    got.set(k, (got.get(k) ?? 0) + 1);
    // Sanity: each failure variant must fingerprint the same way everywhere, and differently from the others.
    if (!failureOfVariant.has(job.variant)) failureOfVariant.set(job.variant, fp.failure);
    else if (failureOfVariant.get(job.variant) !== fp.failure) variantClash++;
  }
  if (new Set(failureOfVariant.values()).size !== failureOfVariant.size) variantClash++;
  const posted = [...got.values()].reduce((a, b) => a + b, 0) + stray;
  const duplicates = [...got.values()].reduce((a, n) => a + Math.max(0, n - 1), 0) + stray;
  const lost = [...expected].filter((k) => !got.has(k)).length;
  // Check runs: exactly one per job (head commit + the family as external id).
  const runs = new Map();
  for (const r of report.checkRuns) runs.set(`${r.sha}:${r.externalId}`, (runs.get(`${r.sha}:${r.externalId}`) ?? 0) + 1);
  const jobKeys = work.jobs.map((j) => `${j.sha}:${familyOf({ repo, job: `${j.workflow} / ${j.name}` })}`);
  const checkRunsMissing = jobKeys.filter((k) => !runs.has(k)).length;
  const checkRunsExtra = [...runs.values()].reduce((a, n) => a + Math.max(0, n - 1), 0) + [...runs.keys()].filter((k) => !jobKeys.includes(k)).length;
  return {
    comments: { expected: expected.size, posted, duplicates, lost, review: report.reviewComments.length, issue: report.issueComments.length, unmarked, variantClash },
    checkRuns: { expected: work.jobs.length, posted: report.checkRuns.length, missing: checkRunsMissing, extra: checkRunsExtra, logUnavailable: report.checkRuns.filter((r) => /log unavailable/i.test(r.title ?? '')).length },
  };
}

// ── Main ──
const bundle = join(OUT, 'bench-load-github.mjs');
await build({ entryPoints: [join(ROOT, 'scripts/bench-load-github.mjs')], bundle: true, platform: 'node', format: 'esm', packages: 'external', outfile: bundle, logLevel: 'warning' });
const work = workload();
const distinctPairs = new Set(work.jobs.map((j) => `${j.pr}:${j.variant}`)).size;
console.log(
  `bench:load: ${work.sends.length} signed workflow_job deliveries (${JOBS} failing jobs on ${PRS} PRs + ${DUPLICATES} same-id redeliveries), ` +
    `${IN_FLIGHT} in flight; ${distinctPairs} comments expected (distinct PR × failure); fault mix ${FAULTS ? `seed ${MIX.seed}` : 'off'}; ` +
    `${CONCURRENCY} diagnoses at once per process; ${execFileSync('nproc').toString().trim()} cores`,
);
const results = [];
for (const config of CONFIGS) {
  process.stdout.write(`  ${config.label} … `);
  const r = await runConfig(config, bundle, work);
  results.push(r);
  console.log(`${(r.wallMs / 1000).toFixed(1)} s, ${r.comments.posted}/${r.comments.expected} comments, ${r.comments.duplicates} duplicates, ${r.comments.lost} lost`);
}

const mb = (x) => (x === null || x === undefined ? '-' : `${x}`);
const rows = [
  ['deliveries answered', (r) => Object.entries(r.deliveries.statuses).map(([s, n]) => `${n}×${s}`).join(' ')],
  ['webhook p50 / p99 ms', (r) => `${r.deliveries.p50Ms} / ${r.deliveries.p99Ms}`],
  ['duplicates ignored', (r) => `${r.duplicatesIgnored}/${r.deliveries.duplicates}`],
  ['diagnoses completed', (r) => `${r.diagnosesCompleted}/${r.deliveries.jobs}`],
  ['published: created / said-elsewhere', (r) => `${r.diagnosisOutcomes['published:created'] ?? 0} / ${r.diagnosisOutcomes['published:said-elsewhere'] ?? 0}`],
  ['comments posted/expected', (r) => `${r.comments.posted}/${r.comments.expected}`],
  ['duplicate comments', (r) => `${r.comments.duplicates}`],
  ['lost', (r) => `${r.comments.lost}`],
  ['check runs (1 per job)', (r) => `${r.checkRuns.posted}/${r.checkRuns.expected}${r.checkRuns.missing || r.checkRuns.extra ? ` (${r.checkRuns.missing} missing, ${r.checkRuns.extra} extra)` : ''}`],
  ['job runs failed (retried)', (r) => `${r.jobRunsFailed}`],
  ['dead letters', (r) => `${r.deadLetters}`],
  ['wall time s', (r) => `${(r.wallMs / 1000).toFixed(1)}`],
  ['throughput jobs/s', (r) => `${r.jobsPerS}`],
  ['App peak RSS MB', (r) => mb(r.app.peakRssMB)],
  ['worker peak RSS MB', (r) => (r.workers.length ? r.workers.map((w) => mb(w.peakRssMB)).join(' ') : '-')],
  ['CPU s App / workers', (r) => `${r.app.cpuS} / ${r.workers.length ? r.workers.reduce((a, w) => a + (w.cpuS ?? 0), 0).toFixed(1) : '-'}`],
  ['  of which start-up', (r) => `${r.app.startCpuS} / ${r.workers.length ? r.workers.reduce((a, w) => a + (w.startCpuS ?? 0), 0).toFixed(1) : '-'}`],
  ['workers exited on SIGTERM', (r) => (r.workers.length ? `${r.workers.filter((w) => w.onSigterm === 'exited').length}/${r.workers.length}` : '-')],
  ['local GitHub CPU s / requests', (r) => `${r.localGitHub.cpuS} / ${r.github.requests}`],
  ['tarball downloads', (r) => `${r.github.tarballDownloads}`],
  ['faults injected', (r) => `${r.github.faultsInjected}`],
  ['API rule violations', (r) => `${r.github.violations}`],
];
const w0 = Math.max(...rows.map(([l]) => l.length));
const cells = rows.map(([label, f]) => [label, ...results.map(f)]);
const widths = results.map((_, i) => Math.max(results[i].config.length, ...cells.map((c) => c[i + 1].length)));
console.log(`\n${''.padEnd(w0)}  ${results.map((r, i) => r.config.padStart(widths[i])).join('  ')}`);
for (const c of cells) console.log(`${c[0].padEnd(w0)}  ${c.slice(1).map((v, i) => v.padStart(widths[i])).join('  ')}`);

const file = join(OUT, 'load.json');
writeFileSync(file, JSON.stringify({ at: new Date().toISOString(), node: process.version, cores: Number(execFileSync('nproc').toString().trim()), settings: { jobs: JOBS, prs: PRS, duplicates: DUPLICATES, inFlight: IN_FLIGHT, concurrency: CONCURRENCY, maxWaitMs: MAX_WAIT_MS, retryBackoffMs: RETRY_BACKOFF_MS, faultMix: FAULTS ? MIX : null, failures: FAILURES.length }, results }, null, 2));
console.log(`\nfigures: ${file}`);
for (const r of results) {
  if (r.warnings.length) console.log(`${r.config}: first warnings: ${r.warnings.slice(0, 3).join(' | ')}`);
  if (r.github.violations) console.log(`${r.config}: API rule violations: ${r.github.firstViolations.join(' | ')}`);
  if (r.deadLetters) console.log(`${r.config}: dead letters: ${r.deadLetterErrors.join(' | ')}`);
  if (r.comments.variantClash) console.log(`${r.config}: the failure variants did not fingerprint apart (${r.comments.variantClash}): the expected counts are off`);
  if (r.appStderr) console.log(`${r.config}: App stderr: ${r.appStderr}`);
}
const bad = results.filter((r) => r.comments.duplicates > 0 || r.comments.lost > 0);
if (bad.length) {
  console.error(`\nFAILED: ${bad.map((r) => `${r.config}: ${r.comments.duplicates} duplicate comments, ${r.comments.lost} lost`).join('; ')}`);
  process.exit(1);
}
