import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deliver, ensureUser, nextId, now } from '../helpers/fake-github/index.js';
import { RECEIPT_EDIT, FIXTURE, HEAD_SHA, REPO, SECRET, patchFiles, startHarness, workflowJobPayload, type Harness } from './e2e-helpers.js';

const LOG = readFileSync(join(FIXTURE, 'log.txt'), 'utf8');
const TOKEN = 'status-token-for-tests-0123456789';


let h: Harness;
let artifactDir: string;
beforeEach(async () => {
  artifactDir = mkdtempSync(join(tmpdir(), 'redline-status-artifacts-'));
  h = await startHarness({ statusToken: TOKEN, artifactDir, publicUrl: 'https://redline.example.test' });
});
afterEach(async () => {
  await h.close();
  rmSync(artifactDir, { recursive: true, force: true });
});

async function runOneDiagnosis(): Promise<void> {
  h.fake.addPull(REPO, { number: 7, head: { ref: 'currency', sha: HEAD_SHA }, files: [...patchFiles(), RECEIPT_EDIT] });
  const job = h.fake.addJob(REPO, { id: 501, name: 'typecheck', workflow_name: 'CI', head_sha: HEAD_SHA, log: LOG });
  const res = await deliver(h.webhookUrl, 'workflow_job', workflowJobPayload(h.fake, job), SECRET);
  expect(res.status).toBe(200);
  await h.queue.idle();
}

const status = (query = '', headers: Record<string, string> = {}) => fetch(`${h.appUrl}/redline/status${query}`, { headers });

interface Snapshot {
  queueDepth: number;
  recent: { repo: string; pr: number; pin: string | null; category: string; ms: number; tier: string; action: string }[];
  feedback: Record<string, { up: number; down: number; comments: number }>;
}

describe('/redline/status (served by the App, behind a shared token)', () => {
  it('answers 401 without the token or with a wrong one, 200 with it (header or query)', async () => {
    expect((await status()).status).toBe(401);
    expect((await status('', { authorization: 'Bearer nope' })).status).toBe(401);
    expect((await status('?token=nope')).status).toBe(401);
    const ok = await status('', { authorization: `Bearer ${TOKEN}` });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('cache-control')).toBe('no-store');
    expect(await ok.json()).toEqual({ queueDepth: 0, deadLetters: [], recent: [], feedback: {} });
    expect((await status(`?token=${TOKEN}`)).status).toBe(200);
    // Nothing of it reached GitHub: no diagnosis ran.
    expect(h.fake.requests).toHaveLength(0);
  });

  it('shows a diagnosis after one runs (repo, PR, pin, category, ms) and no log text', async () => {
    await runOneDiagnosis();
    const res = await status('', { authorization: `Bearer ${TOKEN}` });
    const snap = (await res.json()) as Snapshot;
    expect(snap.queueDepth).toBe(0);
    expect(snap.recent).toHaveLength(1);
    expect(snap.recent[0]).toMatchObject({ repo: REPO, pr: 7, pin: 'src/receipt.ts:15', tier: 'line', action: 'created' });
    expect(snap.recent[0]!.category).toBeTruthy();
    expect(snap.recent[0]!.ms).toBeGreaterThan(0);
    // The log's lines (the tsc error text) are not on the page.
    const text = JSON.stringify(snap);
    expect(text).not.toMatch(/error TS\d+/);
    expect(text).not.toContain('Expected');

    const html = await status('?format=html', { authorization: `Bearer ${TOKEN}` });
    expect(html.headers.get('content-type')).toMatch(/^text\/html/);
    expect(html.headers.get('content-security-policy')).toContain("default-src 'none'");
    const page = await html.text();
    expect(page).toContain('src/receipt.ts:15');
    expect(page).toContain('octo-org/invoicer');
  });

  it('counts a 👍 seeded on the Redline comment, not one on a person’s comment that copied the marker', async () => {
    await runOneDiagnosis();
    const repo = h.fake.repo(REPO);
    expect(repo.reviewComments).toHaveLength(1);
    const comment = repo.reviewComments[0]!;
    // The comment invites the reaction.
    expect(comment.body).toMatch(/React 👍 or 👎/);
    ensureUser(h.fake.state, 'reviewer');
    comment.reactions.push({ id: nextId(h.fake.state), user: 'reviewer', content: '+1', created_at: now() });
    const copy = h.fake.addIssueComment(REPO, 7, { user: 'reviewer', body: `quoting: ${comment.body}` });
    copy.reactions.push({ id: nextId(h.fake.state), user: 'octocat', content: '-1', created_at: now() });
    const snap = (await (await status('', { authorization: `Bearer ${TOKEN}` })).json()) as Snapshot;
    expect(snap.feedback[REPO]).toEqual({ up: 1, down: 0, comments: 1 });
    expect(h.fake.requestsTo('GET', `/repos/${REPO}/pulls/7/comments`).length).toBeGreaterThan(0);
    expect(h.fake.violations).toEqual([]);
  });

  it('lists a job whose attempts were spent among the dead letters, its error one redacted line; the queue is empty again', async () => {
    await h.close();
    h = await startHarness({ statusToken: TOKEN, artifactDir, retry: { attempts: 2, backoffMs: 10 } });
    // A commit whose code cannot be downloaded (no tarball: 404) fails every attempt.
    const sha = 'dead'.padEnd(40, '0');
    h.fake.addPull(REPO, { number: 9, head: { ref: 'gone', sha }, files: [...patchFiles(), RECEIPT_EDIT] });
    const job = h.fake.addJob(REPO, { id: 909, name: 'typecheck', workflow_name: 'CI', head_sha: sha, log: LOG });
    const payload = workflowJobPayload(h.fake, job) as { workflow_job: Record<string, unknown> };
    payload.workflow_job = { ...payload.workflow_job, head_sha: sha };
    expect((await deliver(h.webhookUrl, 'workflow_job', payload, SECRET)).status).toBe(200);
    await h.queue.idle();
    expect(h.fake.requestsTo('GET', `/repos/${REPO}/tarball/${sha}`)).toHaveLength(2);
    const snap = (await (await status(`?token=${TOKEN}`)).json()) as Snapshot & { deadLetters: { id: string; attempts: number; error: string }[] };
    expect(snap.queueDepth).toBe(0);
    expect(snap.deadLetters).toHaveLength(1);
    expect(snap.deadLetters[0]!.attempts).toBe(2);
    expect(snap.deadLetters[0]!.id).toContain('/909');
    expect(snap.deadLetters[0]!.error).not.toContain('\n');
    const html = await (await status(`?token=${TOKEN}`, { accept: 'text/html' })).text();
    expect(html).toContain('Dead letters');
  });

  it('is off (404) when REDLINE_STATUS_TOKEN is unset', async () => {
    await h.close();
    h = await startHarness({ artifactDir });
    const res = await fetch(`${h.appUrl}/redline/status`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(404);
  });
});

describe('status page helpers', () => {
  it('escapes HTML and compares tokens in constant time (any length)', async () => {
    const { escapeHtml, tokenMatches } = await import('../../src/service/http.js');
    expect(escapeHtml(`<img src=x onerror="a('b')">&`)).toBe('&#60;img src=x onerror=&#34;a(&#39;b&#39;)&#34;&#62;&#38;');
    expect(tokenMatches(TOKEN, TOKEN)).toBe(true);
    expect(tokenMatches(`${TOKEN}x`, TOKEN)).toBe(false);
    expect(tokenMatches('', TOKEN)).toBe(false);
    expect(tokenMatches(undefined, TOKEN)).toBe(false);
  });
});
