/**
 * The hostile corpus' webhooks (fixtures/hostile/webhooks/, see fixtures/hostile/README.md) through the
 * App's real entry point: Probot started for real (createNodeMiddleware, as startHarness does), signed
 * deliveries POSTed to /api/github/webhooks. Each malformed payload ends in a clear 4xx or a clean 200
 * with nothing queued and one log line saying why, never a 500; huge bodies are refused with bounded
 * memory, and the App answers the next delivery. The `probot run` child gets the same size cap in
 * probot-run.e2e.test.ts.
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { hugeNames, hugeWebhookBody } from '../../fixtures/hostile/generate.js';
import { MAX_CHECK_OUTPUT_CHARS, MAX_PAYLOAD_NAME_CHARS, MAX_WEBHOOK_BODY_BYTES } from '../../src/limits.js';
import type { Task } from '../../src/tasks/task.js';
import type { QueuedJob } from '../../src/queue/queue.js';
import { streamBody } from '../helpers/stream-body.js';
import { SECRET, startHarness, type Harness } from './e2e-helpers.js';

const WEBHOOKS = new URL('../../fixtures/hostile/webhooks/', import.meta.url);
const raw = (file: string): Buffer => readFileSync(new URL(file, WEBHOOKS));
const json = (file: string) => JSON.parse(raw(file).toString('utf8'));
const MB = 1024 * 1024;
/** Built at test time: it must never come back in a response or a log line. */
const CANARY = ['canary', 'webhook', randomBytes(6).toString('hex')].join('-');

/** Probot's log lines (pino JSON, one per entry), for the "one line saying why" checks. */
const lines: string[] = [];
const log = pino({ level: 'debug' }, { write: (s: string) => void lines.push(...s.split('\n').filter(Boolean)) });
const logSince = (n: number) => lines.slice(n).map((l) => JSON.parse(l) as { level: number; msg?: string });

let h: Harness;
let added: QueuedJob<Task>[];
beforeAll(async () => {
  h = await startHarness({}, { log });
});
afterAll(async () => {
  await h?.close();
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** Records what the doors queue without running it (a diagnosis is not what these tests are about). */
function spyQueue(): void {
  added = [];
  vi.spyOn(h.queue, 'add').mockImplementation(async (job) => {
    added.push(job as QueuedJob<Task>);
    return true;
  });
}

const signature = (body: Buffer | string) => `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;

/** A delivery of exactly these bytes, signed over them (deliver() re-serialises JSON and cannot send an empty body). */
async function post(event: string, body: Buffer | string, headers: Record<string, string> = {}) {
  const res = await fetch(h.webhookUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': 'GitHub-Hookshot/fake', 'x-github-event': event, 'x-github-delivery': randomUUID(), 'x-hub-signature-256': signature(body), ...headers },
    body: typeof body === 'string' ? body : new Uint8Array(body),
  });
  return { status: res.status, body: await res.text() };
}

/** Nothing reached GitHub, nothing was queued, nothing is running. */
async function expectNothingQueued(requestsBefore: number): Promise<void> {
  expect(added).toEqual([]);
  await h.queue.idle();
  const c = await h.queue.counts();
  expect(c.waiting + c.running).toBe(0);
  expect(h.fake.requests.length).toBe(requestsBefore);
}

/**
 * One line at `level` or above (default warn) from Redline or @octokit/webhooks saying why, and no canary
 * in any line (`canaryIn: 'reason'`: only in that line; Probot itself logs every delivery id).
 */
function expectOneReason(since: number, reason: RegExp, level = 40, canaryIn: 'all' | 'reason' = 'all'): void {
  const entries = logSince(since);
  const said = entries.filter((e) => e.level >= level && reason.test(e.msg ?? ''));
  expect(said, JSON.stringify(entries)).toHaveLength(1);
  expect(said[0]!.msg!).not.toMatch(/\n/);
  expect(said[0]!.msg!.length).toBeLessThan(700);
  expect(said[0]!.msg!).not.toContain(CANARY);
  if (canaryIn === 'all') for (const l of lines.slice(since)) expect(l).not.toContain(CANARY);
}

describe('malformed webhook payloads with a valid signature (fixtures/hostile/webhooks)', () => {
  const CASES: Array<{ file: string; event: string; status: number; reason: RegExp; level?: number }> = [
    // The body is not a JSON object: refused before @octokit/webhooks (which answered null/42/"x" with a 500).
    { file: 'body.invalid-json.txt', event: 'workflow_job', status: 400, reason: /^Invalid JSON$/, level: 50 },
    { file: 'body.null.json', event: 'workflow_job', status: 400, reason: /webhook refused \(400\): the body \(5 bytes\) is not a JSON object/ },
    { file: 'body.number.json', event: 'workflow_job', status: 400, reason: /is not a JSON object/ },
    { file: 'body.string.json', event: 'issue_comment', status: 400, reason: /is not a JSON object/ },
    { file: 'body.array.json', event: 'check_run', status: 400, reason: /is not a JSON object/ },
    { file: 'body.empty.txt', event: 'workflow_job', status: 400, reason: /the body \(0 bytes\) is not a JSON object/ },
    // The right event, fields the handlers read missing, null or of the wrong type: ignored (200), one line naming them.
    { file: 'workflow_job.no-repository.json', event: 'workflow_job', status: 200, reason: /^redline: workflow_job\.completed delivery ignored, malformed payload: repository: Invalid input: expected object, received undefined$/ },
    { file: 'workflow_job.owner-null.json', event: 'workflow_job', status: 200, reason: /malformed payload: repository\.owner: Invalid input: expected object, received null$/ },
    { file: 'workflow_job.no-installation.json', event: 'workflow_job', status: 200, reason: /malformed payload: installation: Invalid input: expected object, received undefined$/ },
    { file: 'workflow_job.job-a-string.json', event: 'workflow_job', status: 200, reason: /malformed payload: workflow_job: Invalid input: expected object, received string$/ },
    { file: 'workflow_job.id-a-string.json', event: 'workflow_job', status: 200, reason: /malformed payload: workflow_job\.id: Invalid input: expected number, received string$/ },
    { file: 'workflow_job.sha-a-number.json', event: 'workflow_job', status: 200, reason: /malformed payload: workflow_job\.head_sha: Invalid input: expected string, received number$/ },
    { file: 'workflow_job.sha-not-hex.json', event: 'workflow_job', status: 200, reason: /malformed payload: workflow_job\.head_sha: not a 40-hex commit SHA$/ },
    { file: 'workflow_job.repo-name-traversal.json', event: 'workflow_job', status: 200, reason: /malformed payload: repository\.name: not a valid GitHub repo name$/ },
    { file: 'workflow_job.repo-url-javascript.json', event: 'workflow_job', status: 200, reason: /malformed payload: repository\.html_url: not an http\(s\) URL$/ },
    // ["completed"] stringifies to "completed": @octokit/webhooks calls the workflow_job.completed handlers.
    { file: 'workflow_job.action-an-array.json', event: 'workflow_job', status: 200, reason: /^redline: workflow_job delivery ignored, malformed payload: action: Invalid input: expected "completed"; workflow_job: Invalid input: expected object, received null$/ },
    { file: 'issue_comment.body-a-number.json', event: 'issue_comment', status: 200, reason: /^redline: issue_comment\.created delivery ignored, malformed payload: comment\.body: Invalid input: expected string, received number$/ },
    { file: 'issue_comment.login-traversal.json', event: 'issue_comment', status: 200, reason: /malformed payload: comment\.user\.login: not a GitHub login$/ },
    { file: 'issue_comment.no-sender.json', event: 'issue_comment', status: 200, reason: /malformed payload: sender: Invalid input: expected object, received undefined$/ },
    { file: 'check_run.output-a-number.json', event: 'check_run', status: 200, reason: /^redline: check_run\.completed delivery ignored, malformed payload: check_run\.output\.text: Invalid input: expected string, received number$/ },
    { file: 'check_run.pull-requests-an-object.json', event: 'check_run', status: 200, reason: /malformed payload: check_run\.pull_requests: Invalid input: expected array, received object$/ },
    { file: 'check_run.sha-short.json', event: 'check_run', status: 200, reason: /malformed payload: check_run\.head_sha: not a 40-hex commit SHA$/ },
    // Events and actions no handler reads: a clean 200 and a debug line.
    { file: 'workflow_job.unknown-action.json', event: 'workflow_job', status: 200, reason: /^redline: workflow_job\.exploded delivery ignored: not an event Redline handles$/, level: 20 },
    { file: 'unknown-event.json', event: 'redline_nonsense', status: 200, reason: /^redline: redline_nonsense\.exploded delivery ignored: not an event Redline handles$/, level: 20 },
  ];

  it.each(CASES)('$file as $event → $status, nothing queued, one line saying why', async ({ file, event, status, reason, level }) => {
    spyQueue();
    const requests = h.fake.requests.length;
    const since = lines.length;
    const res = await post(event, raw(file));
    expect(res.status, res.body).toBe(status);
    if (status === 400) expect(JSON.parse(res.body).error).toMatch(/JSON/);
    await expectNothingQueued(requests);
    expectOneReason(since, reason, level);
  });

  it('the valid payload each malformed one was made from is queued (the fixtures differ in the one field only)', async () => {
    for (const [file, event, kind] of [
      ['workflow_job.valid.json', 'workflow_job', 'diagnose'],
      ['check_run.valid.json', 'check_run', 'diagnose'],
      ['issue_comment.valid.json', 'issue_comment', 'command'],
    ] as const) {
      spyQueue();
      const since = lines.length;
      expect((await post(event, raw(file))).status).toBe(200);
      expect(added.map((j) => j.task.kind), file).toEqual([kind]);
      expect(added[0]!.task.installationId).toBe(2001);
      expect(logSince(since).filter((e) => e.level >= 40)).toEqual([]);
    }
  });

  it('a hostile value is named by its field, never echoed: the canary as head_sha and as the delivery id', async () => {
    spyQueue();
    const requests = h.fake.requests.length;
    let since = lines.length;
    const p = json('workflow_job.valid.json');
    p.workflow_job.head_sha = CANARY;
    const res = await post('workflow_job', JSON.stringify(p));
    expect(res.status).toBe(200);
    expect(res.body).not.toContain(CANARY);
    expectOneReason(since, /workflow_job\.head_sha: not a 40-hex commit SHA$/);

    since = lines.length;
    const long = await post('workflow_job', raw('workflow_job.valid.json'), { 'x-github-delivery': `${CANARY}-${'x'.repeat(300)}` });
    expect(long.status).toBe(200);
    expectOneReason(since, /^redline: workflow_job\.completed delivery ignored: X-GitHub-Delivery is not a delivery id/, 40, 'reason');
    await expectNothingQueued(requests);
  });

  it('huge names (5 MB each) are cut to MAX_PAYLOAD_NAME_CHARS in what is queued; a 2 MB branch name is refused', async () => {
    spyQueue();
    expect((await post('workflow_job', JSON.stringify(hugeNames(json('workflow_job.valid.json'), 5 * MB)))).status).toBe(200);
    const wj = added[0]!.task;
    expect(wj.kind).toBe('diagnose');
    if (wj.kind !== 'diagnose') return;
    expect(wj.job.jobName.length).toBe(2 * MAX_PAYLOAD_NAME_CHARS + 3);
    expect(added[0]!.id.length).toBeLessThan(2 * MAX_PAYLOAD_NAME_CHARS + 100);

    spyQueue();
    expect((await post('check_run', JSON.stringify(hugeNames(json('check_run.valid.json'), 3 * MB)))).status).toBe(200);
    const cr = added[0]!.task;
    if (cr.kind !== 'diagnose') throw new Error('not a diagnosis');
    expect(cr.job.jobName.length).toBe(2 * MAX_PAYLOAD_NAME_CHARS + 3);
    for (const f of ['title', 'summary', 'text'] as const) expect(cr.job.checkRun!.output![f]!.length).toBe(MAX_CHECK_OUTPUT_CHARS);
    expect(JSON.stringify(added[0]).length).toBeLessThan(250_000);

    spyQueue();
    const requests = h.fake.requests.length;
    const since = lines.length;
    const p = json('workflow_job.valid.json');
    p.workflow_job.head_branch = 'b'.repeat(2 * MB);
    expect((await post('workflow_job', JSON.stringify(p))).status).toBe(200);
    expectOneReason(since, /workflow_job\.head_branch: Too big: expected string to have <=1024 characters$/);
    await expectNothingQueued(requests);
  });
});

describe('huge webhook bodies (GitHub sends at most 25 MB)', () => {
  it('a 30 MB body with its Content-Length → 413 before it is read; memory stays flat', async () => {
    spyQueue();
    const since = lines.length;
    const bytes = 30 * MB;
    const r = await streamBody(h.webhookUrl, hugeWebhookBody(bytes), { declared: bytes });
    console.log(`30 MB, Content-Length: ${r.status} after ${r.ms} ms, client had sent ${(r.sentAtAnswer / MB).toFixed(1)} MB; peak RSS growth ${r.peakGrowthMB} MB`);
    expect(r.status, r.error).toBe(413);
    expect(JSON.parse(r.body).error).toMatch(/payload too large/);
    // Answered while the body was still being sent (without the guard the answer comes after all 30 MB were read).
    expect(r.sentAtAnswer).toBeLessThan(24 * MB);
    expect(r.peakGrowthMB).toBeLessThan(40);
    expectOneReason(since, /webhook refused \(413\): Content-Length 31457280 is over the 26214400-byte cap/);
    expect(added).toEqual([]);
  });

  it('a chunked stream of 128 MB is cut off once it passes 25 MB; memory stays bounded', async () => {
    spyQueue();
    const since = lines.length;
    const r = await streamBody(h.webhookUrl, hugeWebhookBody(128 * MB));
    console.log(`128 MB, chunked: ${r.status ?? r.error} after ${r.ms} ms, client had sent ${(r.sentAtAnswer / MB).toFixed(1)} MB; peak RSS growth ${r.peakGrowthMB} MB`);
    // The answer is a 413; a client still writing may see the connection reset first.
    if (r.status !== undefined) expect(r.status).toBe(413);
    else expect(r.error).toMatch(/EPIPE|ECONNRESET|socket hang up/);
    expect(r.sentAtAnswer).toBeLessThan(48 * MB);
    expect(r.peakGrowthMB).toBeLessThan(100);
    expectOneReason(since, /webhook refused \(413\): body passed the 26214400-byte cap/);
    expect(added).toEqual([]);
  });

  it('a body of exactly the cap (GitHub\'s largest) still goes through, and the App answers the next delivery', async () => {
    spyQueue();
    const body = Buffer.concat([...hugeWebhookBody(MAX_WEBHOOK_BODY_BYTES)]);
    const r = await streamBody(h.webhookUrl, [body], { declared: body.length, headers: { 'x-github-event': 'redline_nonsense', 'x-hub-signature-256': signature(body) } });
    expect(r.status, r.body).toBe(200);
    const next = await post('workflow_job', raw('workflow_job.valid.json'));
    expect(next.status).toBe(200);
    expect(added.map((j) => j.task.kind)).toEqual(['diagnose']);
  });
});
