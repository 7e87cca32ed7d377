import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ArtifactSigner, LocalArtifactStore, artifactKey, keepLogHead, type ArtifactFiles } from '../../src/service/artifact-store.js';
import { deliver } from '../helpers/fake-github/index.js';
import { FIXTURE, HEAD_SHA, REPO, SECRET, patchFiles, startHarness, workflowJobPayload, type Harness } from './e2e-helpers.js';

const TOKEN_LINE = `2024-05-01T10:00:00.0000000Z NPM auth: ghp_${'aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5'}`;
const LOG = `${TOKEN_LINE}\n${readFileSync(join(FIXTURE, 'log.txt'), 'utf8')}`;
const PUBLIC = 'https://redline.example.test';
const KEY = 'artifact-key-for-tests';
const DAY = 86_400_000;

let h: Harness;
let dir: string;
let clock: number;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'redline-artifacts-'));
  clock = Date.now();
  h = await startHarness({ artifactDir: dir, publicUrl: PUBLIC, artifactKey: KEY, now: () => clock });
});
afterEach(async () => {
  await h.close();
  rmSync(dir, { recursive: true, force: true });
});

async function diagnoseOnce(): Promise<string> {
  h.fake.addPull(REPO, { number: 7, head: { ref: 'currency', sha: HEAD_SHA }, files: patchFiles() });
  const job = h.fake.addJob(REPO, { id: 501, name: 'typecheck', workflow_name: 'CI', head_sha: HEAD_SHA, log: LOG });
  await deliver(h.webhookUrl, 'workflow_job', workflowJobPayload(h.fake, job), SECRET);
  await h.queue.idle();
  const comments = h.fake.repo(REPO).issueComments;
  expect(comments).toHaveLength(1);
  return comments[0]!.body;
}

/** The artifact link of a comment, pointed at the local App instead of its public address. */
function artifactLink(body: string): URL {
  const m = /\[Artifacts\]\((https:\/\/[^)\s]+)\)/.exec(body);
  expect(m).not.toBeNull();
  const url = new URL(m![1]!);
  expect(url.origin).toBe(PUBLIC);
  return new URL(`${url.pathname}${url.search}`, h.appUrl);
}

/** GET with the path sent exactly as given (fetch would normalise `..` away). */
function rawGet(path: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(h.appUrl);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path, method: 'GET' }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('artifacts: stored after each diagnosis, linked from the comment at a signed, expiring URL', () => {
  it('the link in the comment works: an index page, then the raw log, cleaned log and trace, redacted', async () => {
    const body = await diagnoseOnce();
    expect(body).toMatch(/React 👍 or 👎/);
    const index = artifactLink(body);
    expect(index.pathname).toMatch(/^\/redline\/artifacts\/[A-Za-z0-9_-]{24}\/index\.html$/);
    const res = await fetch(index);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    const page = await res.text();
    const links = [...page.matchAll(/href="([^"]+)"/g)].map((m) => new URL(m[1]!.replace(/&amp;/g, '&'), index));
    expect(links.map((l) => l.pathname.split('/').pop())).toEqual(['raw.log', 'cleaned.log', 'diagnosis.json', 'trace.json']);
    const got: Record<string, string> = {};
    for (const l of links) {
      const r = await fetch(l);
      expect(r.status).toBe(200);
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
      got[l.pathname.split('/').pop()!] = await r.text();
    }
    expect(got['raw.log']).toContain('error TS2554');
    expect(got['raw.log']).toContain('[REDACTED:github-token]');
    expect(got['raw.log']).not.toContain('ghp_aB3d');
    expect(got['cleaned.log']).toMatch(/^\s+\d+ {2}/m);
    expect(JSON.parse(got['trace.json']!)).toHaveProperty('candidates');
    expect(JSON.parse(got['diagnosis.json']!)).toMatchObject({ version: 2, status: 'located' });
    expect(Object.values(got).join('\n')).not.toContain('ghp_aB3d');
    // Stored in the configured folder, one sub-folder per id.
    expect(readdirSync(dir)).toEqual([index.pathname.split('/')[3]]);
  });

  it('a tampered signature is 403; an expired link is 410; a name outside the list (../) is 404', async () => {
    const index = artifactLink(await diagnoseOnce());
    const id = index.pathname.split('/')[3]!;
    const exp = Number(index.searchParams.get('exp'));
    const sig = index.searchParams.get('sig')!;

    const tampered = new URL(index);
    tampered.searchParams.set('sig', (sig[0] === 'a' ? 'b' : 'a') + sig.slice(1));
    expect((await fetch(tampered)).status).toBe(403);
    const noSig = new URL(index);
    noSig.searchParams.delete('sig');
    expect((await fetch(noSig)).status).toBe(403);
    // Moving the expiry breaks the signature too.
    const later = new URL(index);
    later.searchParams.set('exp', String(exp + 3600));
    expect((await fetch(later)).status).toBe(403);
    // Another file with the index's signature: 403.
    expect((await fetch(new URL(`raw.log${index.search}`, index))).status).toBe(403);

    // Path traversal: correctly signed for the bad name, still 404 (names come from a fixed list).
    const signer = new ArtifactSigner(artifactKey({ key: KEY }).key);
    for (const name of ['../raw.log', '../../../../etc/passwd', '..']) {
      const q = `?exp=${exp}&sig=${signer.sign(id, name, exp)}`;
      expect((await rawGet(`/redline/artifacts/${id}/${encodeURIComponent(name)}${q}`)).status).toBe(404);
    }
    expect((await rawGet(`/redline/artifacts/${id}/../../../etc/passwd?exp=${exp}&sig=${sig}`)).status).toBe(404);
    expect((await rawGet(`/redline/artifacts/..%2F..%2Fetc/raw.log?exp=${exp}&sig=${sig}`)).status).toBe(404);
    expect((await rawGet(`/redline/artifacts/${id}/raw.log/..?exp=${exp}&sig=${sig}`)).status).toBe(404);

    // The link still works, then expires after 7 days.
    expect((await fetch(index)).status).toBe(200);
    clock += 7 * DAY + 1000;
    const expired = await fetch(index);
    expect(expired.status).toBe(410);
  });

  it('no public URL: the comment has no artifact link', async () => {
    await h.close();
    h = await startHarness({ artifactDir: dir, artifactKey: KEY });
    const body = await diagnoseOnce();
    expect(body).not.toContain('[Artifacts]');
    expect(body).toMatch(/React 👍 or 👎/);
  });
});

describe('LocalArtifactStore', () => {
  const files = (n: number): ArtifactFiles => ({ 'raw.log': 'x'.repeat(n), 'cleaned.log': 'c\n', 'diagnosis.json': '{}\n', 'trace.json': '{}\n' });

  it('is bounded by size, oldest first, and by age; never reads outside its folder', async () => {
    const root = mkdtempSync(join(tmpdir(), 'redline-store-'));
    try {
      let t = 1_000_000;
      const store = new LocalArtifactStore(root, { maxBytes: 2500, ttlS: 3600, now: () => t });
      const a = await store.put(files(1000));
      t += 1000;
      const b = await store.put(files(1000));
      t += 1000;
      const c = await store.put(files(1000));
      expect(await store.get(a, 'raw.log')).toBeUndefined();
      expect((await store.get(b, 'raw.log'))?.length).toBe(1000);
      expect((await store.get(c, 'cleaned.log'))?.toString()).toBe('c\n');
      expect(readdirSync(root).sort()).toEqual([b, c].sort());
      // An hour later the old ones are gone at the next write.
      t += 3600_000 + 1;
      const d = await store.put(files(10));
      expect(readdirSync(root)).toEqual([d]);
      // Not an id, not a name: nothing is read.
      expect(await store.get('../x', 'raw.log')).toBeUndefined();
      expect(await store.get(d, '../raw.log' as 'raw.log')).toBeUndefined();
      // A restart finds what is there and keeps bounding it.
      const again = new LocalArtifactStore(root, { maxBytes: 20, ttlS: 3600, now: () => Date.now() });
      await again.put(files(10));
      expect(readdirSync(root)).toHaveLength(1);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('keepLogHead passes the log through untouched and keeps only its head', async () => {
    const text = 'line\n'.repeat(1000);
    const kept = keepLogHead(Readable.from([Buffer.from(text.slice(0, 2000)), Buffer.from(text.slice(2000))]), 100);
    const chunks: Buffer[] = [];
    for await (const c of kept.log) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe(text);
    expect(kept.text()).toMatch(/^(line\n){20}\n\[redline: raw log cut after 100 of 5000\+ bytes\]\n$/);
  });
});
