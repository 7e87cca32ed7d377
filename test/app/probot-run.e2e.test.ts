/**
 * The App started the way a user starts it (`npm start` = `probot run ./dist/doors/app.js`): a child
 * process configured only through the environment (APP_ID, PRIVATE_KEY, WEBHOOK_SECRET, GHE_HOST +
 * GHE_PROTOCOL=http, PORT), talking to the local GitHub under `/api/v3`. Needs `dist/`: built in beforeAll.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHmac, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliver, generateAppKey, makeTarball, startFakeGitHub, type FakeGitHub } from '../helpers/fake-github/index.js';
import { childRss, streamBody } from '../helpers/stream-body.js';
import { hugeWebhookBody } from '../../fixtures/hostile/generate.js';
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

describe('`probot run`: the 25 MB body cap and the payload checks sit in front of Probot\'s own server too', () => {
  const MB = 1024 * 1024;
  const hook = () => `${appUrl}/api/github/webhooks`;
  const hostile = (file: string) => readFileSync(join(ROOT, 'fixtures/hostile/webhooks', file));

  it('a 30 MB body with its Content-Length → 413 unread; a 128 MB chunked stream is cut off; the child\'s RSS stays flat', async () => {
    const rss = childRss(child!.pid!);
    const declared = await streamBody(hook(), hugeWebhookBody(30 * MB), { declared: 30 * MB, rss });
    console.log(`probot run, 30 MB with Content-Length: ${declared.status} after ${declared.ms} ms, client had sent ${(declared.sentAtAnswer / MB).toFixed(1)} MB; child peak RSS growth ${declared.peakGrowthMB} MB`);
    expect(declared.status, declared.error).toBe(413);
    // Answered while the body was still being sent (what the client sent on meanwhile was dropped, not kept).
    expect(declared.sentAtAnswer).toBeLessThan(24 * MB);
    expect(declared.peakGrowthMB).toBeLessThan(40);

    const chunked = await streamBody(hook(), hugeWebhookBody(128 * MB), { rss });
    console.log(`probot run, 128 MB chunked: ${chunked.status ?? chunked.error} after ${chunked.ms} ms, client had sent ${(chunked.sentAtAnswer / MB).toFixed(1)} MB; child peak RSS growth ${chunked.peakGrowthMB} MB`);
    if (chunked.status !== undefined) expect(chunked.status).toBe(413);
    else expect(chunked.error).toMatch(/EPIPE|ECONNRESET|socket hang up/);
    expect(chunked.sentAtAnswer).toBeLessThan(48 * MB);
    expect(chunked.peakGrowthMB).toBeLessThan(100);
    await until(() => (output.match(/webhook refused \(413\)/g) ?? []).length >= 2, 2000);
    expect(output.match(/webhook refused \(413\)/g), output).toHaveLength(2);
    expect(child!.exitCode).toBeNull();
  }, 30_000);

  it('malformed payloads with a valid signature: a 400 or a 200 with a reason, never a 500; the next delivery is answered', async () => {
    const before = fake.requests.length;
    const notObject = await deliverRaw(hook(), 'workflow_job', hostile('body.null.json'));
    expect(notObject.status).toBe(400);
    const ownerNull = await deliverRaw(hook(), 'workflow_job', hostile('workflow_job.owner-null.json'));
    expect(ownerNull.status).toBe(200);
    expect(await until(() => /malformed payload: repository\.owner: Invalid input: expected object, received null/.test(output), 2000), output).toBe(true);
    const ping = await deliverRaw(hook(), 'ping', Buffer.from(JSON.stringify({ zen: 'Keep it logically awesome.', hook_id: 1 })));
    expect(ping.status).toBe(200);
    await sleep(300);
    expect(fake.requests.length).toBe(before);
    expect(child!.exitCode).toBeNull();
  });
});

/** A delivery of exactly these bytes, signed over them. */
async function deliverRaw(url: string, event: string, body: Buffer): Promise<{ status: number; body: string }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-github-event': event, 'x-github-delivery': randomUUID(), 'x-hub-signature-256': `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}` },
    body: new Uint8Array(body),
  });
  return { status: res.status, body: await res.text() };
}
