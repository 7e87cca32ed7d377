import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, utimesSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Octokit } from '@octokit/rest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkoutAt, trimCache } from '../../src/github/checkout.js';
import { BadRefError, LogGoneError, LogNotReadyError } from '../../src/github/errors.js';
import { checkRef } from '../../src/github/client.js';
import { openJobLog } from '../../src/github/logs.js';
import { findPullRequest, pullRequestDiff } from '../../src/github/pull-request.js';
import { makeTarball, startFakeGitHub, type FakeGitHub } from '../helpers/fake-github/index.js';

const REPO = 'octo/app';
const ref = { owner: 'octo', repo: 'app' };
const SHA = 'a'.repeat(40);
let fake: FakeGitHub;
let gh: Octokit;
let cache: string;
const noWait = { baseDelayMs: 1, sleep: async () => {} };

beforeEach(async () => {
  fake = await startFakeGitHub();
  fake.addRepo(REPO);
  gh = new Octokit({ baseUrl: fake.url, auth: fake.createToken('octocat'), log: { debug() {}, info() {}, warn() {}, error() {} } });
  cache = mkdtempSync(join(tmpdir(), 'redline-cache-'));
});
afterEach(async () => {
  await fake.close();
  rmSync(cache, { recursive: true, force: true });
});

const text = async (s: NodeJS.ReadableStream): Promise<string> => {
  let out = '';
  for await (const c of s) out += c.toString();
  return out;
};

describe('openJobLog', () => {
  it('follows the redirect without our token and streams the text', async () => {
    fake.addJob(REPO, { id: 11, head_sha: SHA, log: 'line 1\nline 2\n' });
    expect(await text(await openJobLog(gh, ref, 11, noWait))).toBe('line 1\nline 2\n');
    expect(fake.violations).toEqual([]);
  });

  it('410 is LogGoneError; 404 past the attempts is LogNotReadyError; a running job is not asked for its log', async () => {
    fake.addJob(REPO, { id: 12, head_sha: SHA, log: { text: 'x', gone: true } });
    await expect(openJobLog(gh, ref, 12, noWait)).rejects.toBeInstanceOf(LogGoneError);
    fake.addJob(REPO, { id: 13, head_sha: SHA, log: { text: 'x', notFoundTimes: 10 } });
    await expect(openJobLog(gh, ref, 13, { ...noWait, attempts: 3 })).rejects.toThrow(LogNotReadyError);
    fake.addJob(REPO, { id: 14, head_sha: SHA, status: 'in_progress', conclusion: null, log: 'x' });
    await expect(openJobLog(gh, ref, 14, { ...noWait, attempts: 2 })).rejects.toThrow(/job 14 .* not available after 2 attempts/);
    expect(fake.requestsTo('GET', `/repos/${REPO}/actions/jobs/14/logs`)).toHaveLength(0);
  });
});

describe('checkoutAt', () => {
  it('another process finishing the same commit first keeps its checkout (it may be reading it); ours is dropped', async () => {
    fake.repo(REPO).tarballs[SHA] = makeTarball({ 'src/x.ts': 'export {};\n' }, `octo-app-${SHA.slice(0, 7)}`);
    const dir = join(cache, 'octo', 'app', SHA);
    // While our download runs, a second `redline worker` on this cache completes the same checkout.
    const racing = {
      request: async (route: string, params: Record<string, unknown>) => {
        const res = await gh.request(route as never, params as never);
        if (route.includes('/tarball/')) {
          mkdirSync(dir, { recursive: true });
          writeFileSync(join(dir, 'src-from-the-other-worker.txt'), 'in use\n');
          writeFileSync(join(dir, '.redline-checkout.json'), '{"bytes":1,"files":1,"skipped":[]}');
        }
        return res;
      },
    };
    expect(await checkoutAt(racing as never, ref, SHA, { cacheDir: cache })).toBe(dir);
    expect(readFileSync(join(dir, 'src-from-the-other-worker.txt'), 'utf8')).toBe('in use\n');
    expect(existsSync(join(dir, 'src/x.ts'))).toBe(false);
    expect(readdirSync(join(cache, 'octo', 'app')).filter((n) => n.includes('.tmp-'))).toEqual([]);
  });

  it('downloads the tarball once per commit and reuses the folder', async () => {
    fake.repo(REPO).tarballs[SHA] = makeTarball({ 'src/x.ts': 'export {};\n' }, `octo-app-${SHA.slice(0, 7)}`);
    const [a, b] = await Promise.all([checkoutAt(gh, ref, SHA, { cacheDir: cache }), checkoutAt(gh, ref, SHA, { cacheDir: cache })]);
    const c = await checkoutAt(gh, ref, SHA, { cacheDir: cache });
    expect(a).toBe(b);
    expect(c).toBe(a);
    expect(readFileSync(join(a, 'src/x.ts'), 'utf8')).toBe('export {};\n');
    expect(fake.requestsTo('GET', `/repos/${REPO}/tarball/${SHA}`)).toHaveLength(1);
  });

  it('refuses owner, repo or sha values that could climb out of the cache', async () => {
    await expect(checkoutAt(gh, { owner: '..', repo: 'x' }, SHA, { cacheDir: cache })).rejects.toThrow(BadRefError);
    await expect(checkoutAt(gh, ref, '../../etc', { cacheDir: cache })).rejects.toThrow(BadRefError);
    for (const repo of ['.', '..', 'a/b', '.git/..', '']) expect(() => checkRef({ owner: 'o', repo }, SHA), repo).toThrow(BadRefError);
    // Valid on GitHub: repositories named with a leading dot (the org profile repo `.github`).
    for (const repo of ['.github', '.dotfiles', 'a.b_c-d']) expect(() => checkRef({ owner: 'o', repo }, SHA), repo).not.toThrow();
    expect(() => checkRef({ owner: '.hidden', repo: 'x' }, SHA)).toThrow(BadRefError);
  });

  it('trims the cache to its byte budget, least recently used first', async () => {
    const make = (sha: string, bytes: number, ageS: number): string => {
      const dir = join(cache, 'o', 'r', sha);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, '.redline-checkout.json'), JSON.stringify({ bytes, files: 1, skipped: [] }));
      const t = new Date(Date.now() - ageS * 1000);
      utimesSync(dir, t, t);
      return dir;
    };
    const old = make('1'.repeat(40), 600, 300);
    const mid = make('2'.repeat(40), 600, 200);
    const fresh = make('3'.repeat(40), 600, 100);
    const removed = await trimCache(cache, 1300);
    expect(removed).toEqual([old]);
    expect(existsSync(mid) && existsSync(fresh)).toBe(true);
  });
});

describe('pull requests', () => {
  it('finds the open PR by head SHA and reads its files into hunks', async () => {
    fake.addPull(REPO, { number: 3, head: { ref: 'feature', sha: SHA, repo: 'fork/app' }, files: [{ filename: 'src/a.ts', patch: '@@ -1,2 +1,3 @@\n a\n+b\n c' }, { filename: 'gone.ts', status: 'removed', patch: '@@ -1 +0,0 @@\n-x' }] });
    expect(await findPullRequest(gh, ref, SHA)).toMatchObject({ number: 3, headSha: SHA });
    expect(await findPullRequest(gh, ref, 'f'.repeat(40))).toBeUndefined();
    const diff = await pullRequestDiff(gh, ref, 3);
    expect(diff.files.map((f) => f.file)).toEqual(['src/a.ts']);
    expect(diff.byFile.get('src/a.ts')!.hunks[0]).toMatchObject({ start: 1, end: 3, added: [{ n: 2, text: 'b' }] });
  });
});
