/**
 * The App started the way a user starts it (`npm start` = `probot run ./dist/doors/app.js`): a child
 * process configured only through the environment (APP_ID, PRIVATE_KEY, WEBHOOK_SECRET, GHE_HOST +
 * GHE_PROTOCOL=http, PORT), talking to the local GitHub under `/api/v3`. Needs `dist/`: built in beforeAll.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliver, generateAppKey, makeTarball, startFakeGitHub, type FakeGitHub } from '../helpers/fake-github/index.js';
import { RECEIPT_EDIT, FIXTURE, HEAD_SHA, REPO, headFiles, patchFiles, workflowJobPayload } from './e2e-helpers.js';

const ROOT = join(import.meta.dirname, '../..');
const PROBOT_BIN = join(ROOT, 'node_modules/probot/bin/probot.js');
const SECRET = 'probot-run-secret';
const LOG = readFileSync(join(FIXTURE, 'log.txt'), 'utf8');


async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as AddressInfo).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` every 100 ms until it is truthy or `ms` have passed. */
async function until(check: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await sleep(100);
  }
  return check();
}

let fake: FakeGitHub;
let child: ChildProcess | undefined;
let cacheDir: string;
let appUrl: string;
let output = '';

beforeAll(async () => {
  execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'pipe', timeout: 40_000 });

  const privateKey = generateAppKey();
  fake = await startFakeGitHub({ privateKey });
  fake.addRepo(REPO);
  fake.repo(REPO).tarballs[HEAD_SHA] = makeTarball(headFiles(), `octo-org-invoicer-${HEAD_SHA.slice(0, 7)}`, { sha: HEAD_SHA });
  fake.addPull(REPO, { number: 7, head: { ref: 'currency', sha: HEAD_SHA }, files: [...patchFiles(), RECEIPT_EDIT] });
  fake.addJob(REPO, { id: 501, name: 'typecheck', workflow_name: 'CI', head_sha: HEAD_SHA, log: LOG });
  cacheDir = mkdtempSync(join(tmpdir(), 'redline-probot-run-'));

  const port = await freePort();
  appUrl = `http://127.0.0.1:${port}`;
  // A clean environment: only what `npm start` needs (no ANTHROPIC_API_KEY, no NODE_ENV from the runner).
  child = spawn(process.execPath, [PROBOT_BIN, 'run', './dist/doors/app.js'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: cacheDir,
      APP_ID: String(fake.state.app.id),
      PRIVATE_KEY: privateKey,
      WEBHOOK_SECRET: SECRET,
      GHE_HOST: fake.host,
      GHE_PROTOCOL: 'http',
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      REDLINE_CACHE_DIR: cacheDir,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  let exited: number | null | undefined;
  child.once('exit', (code) => (exited = code));

  const listening = await until(async () => {
    if (exited !== undefined) return true;
    try {
      await fetch(`${appUrl}/`, { signal: AbortSignal.timeout(1000) });
      return true;
    } catch {
      return false;
    }
  }, 15_000);
  if (exited !== undefined || !listening) throw new Error(`probot run did not start listening on ${appUrl} (exit code ${exited}):\n${output}`);
}, 60_000);

afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) {
    const gone = new Promise<void>((r) => child!.once('exit', () => r()));
    child.kill('SIGTERM');
    await Promise.race([gone, sleep(3000).then(() => child!.kill('SIGKILL'))]);
  }
  await fake?.close();
  if (cacheDir) rmSync(cacheDir, { recursive: true, force: true });
});

describe('`probot run ./dist/doors/app.js` (the App as `npm start` runs it) against the local GitHub', () => {
  it('a bad signature is refused with 400, and nothing reaches GitHub', async () => {
    const job = fake.repo(REPO).jobs[501]!;
    const before = fake.requests.length;
    const res = await deliver(`${appUrl}/api/github/webhooks`, 'workflow_job', workflowJobPayload(fake, job), SECRET, { tamper: true });
    expect(res.status).toBe(400);
    expect(res.body).toMatch(/signature does not match/);
    await sleep(300);
    expect(fake.requests.length).toBe(before);
  });

  it('a signed failing workflow_job → exactly one review comment on src/receipt.ts:15, no violations', async () => {
    const job = fake.repo(REPO).jobs[501]!;
    const res = await deliver(`${appUrl}/api/github/webhooks`, 'workflow_job', workflowJobPayload(fake, job), SECRET);
    expect(res.status, output).toBe(200);
    const repo = fake.repo(REPO);
    // Probot's throttling plugin is on here (≥1 s between writes), so the check run and comment take a few seconds.
    const posted = await until(() => repo.reviewComments.length >= 1 && repo.checkRuns.some((c) => c.name === 'Redline' && c.status === 'completed'), 30_000);
    expect(posted, `no review comment within 30 s; child output:\n${output}`).toBe(true);
    await sleep(500); // a second comment would show up here
    expect(repo.reviewComments).toHaveLength(1);
    expect(repo.reviewComments[0]).toMatchObject({ path: 'src/receipt.ts', line: 15, side: 'RIGHT', user: 'redline[bot]' });
    expect(repo.issueComments).toHaveLength(0);
    // Probot used GHE_HOST + GHE_PROTOCOL: every API call went to /api/v3 on the fake.
    expect(fake.requests.filter((r) => r.host === 'api').every((r) => r.prefix === '/api/v3')).toBe(true);
    expect(fake.violations).toEqual([]);
  }, 45_000);
});
