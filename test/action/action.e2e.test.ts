/**
 * The bundled Action run as the runner runs it (child process, INPUT_* / GITHUB_* env, a real
 * `pull_request` payload) against the local GitHub of the App's tests (requests validated against
 * GitHub's OpenAPI description). Needs dist/action (npm run build:action); bundle-fresh.test.ts keeps it current.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseFingerprint } from '../../src/report/fingerprint.js';
import { networkReset, secondaryRateLimit, serverError } from '../helpers/fake-github/index.js';
import { FIXTURE, HEAD_SHA, REPO, prFiles, startActionHarness, writes, type ActionHarness } from './harness.js';

const LOG = readFileSync(join(FIXTURE, 'log.txt'), 'utf8');

/** Reads stdout as the runner does; returns every line that would act as a workflow command. */
function commandsIn(stdout: string): string[] {
  const acted: string[] = [];
  let stop: string | undefined;
  for (const line of stdout.split('\n')) {
    if (stop !== undefined) {
      if (line.trim() === `::${stop}::`) stop = undefined;
      continue;
    }
    const m = /^\s*::([\w-]+)(?: [^:]*)?::(.*)$/.exec(line);
    if (m) {
      acted.push(line);
      if (m[1] === 'stop-commands') stop = m[2];
    } else if (line.includes('##[')) acted.push(line);
  }
  return acted;
}

let h: ActionHarness;
beforeEach(async () => {
  h = await startActionHarness();
});
afterEach(async () => {
  await h.close();
});

describe('the GitHub Action (dist/action/index.js as the runner runs it)', () => {
  it('log-file mode with PR write access → one review comment on the line, outputs set, summary written', async () => {
    h.fake.addPull(REPO, { number: 7, head: { ref: 'currency', sha: HEAD_SHA }, files: prFiles() });
    const res = await h.run({ GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: h.event(), 'INPUT_LOG-FILE': join(FIXTURE, 'log.txt') });
    expect(res.code, res.stderr).toBe(0);
    expect(h.fake.violations).toEqual([]);
    const repo = h.fake.repo(REPO);
    expect(repo.reviewComments).toHaveLength(1);
    expect(repo.reviewComments[0]).toMatchObject({ path: 'src/receipt.ts', line: 15, side: 'RIGHT', user: 'github-actions[bot]' });
    expect(parseFingerprint(repo.reviewComments[0]!.body)).toBeDefined();
    expect(repo.issueComments).toHaveLength(0);
    expect(repo.checkRuns.filter((c) => c.name === 'Redline')).toHaveLength(1);
    expect(res.outputs).toMatchObject({ file: 'src/receipt.ts', line: '15', category: 'compile', status: 'located' });
    expect(res.outputs['comment-url']).toBe(`https://github.com/${REPO}/pull/7#discussion_r${repo.reviewComments[0]!.id}`);
    expect(res.summary).toContain('src/receipt.ts:15');
    expect(res.summary).toContain('TS2554');
    // Written once: a second run of the same failure edits nothing and posts nothing new.
    const again = await h.run({ GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: h.event(), 'INPUT_LOG-FILE': join(FIXTURE, 'log.txt') });
    expect(again.code).toBe(0);
    expect(repo.reviewComments).toHaveLength(1);
  });

  it('under faults (a 502 after the review was stored, a dropped connection on a read, a secondary limit) → still exactly one review comment', async () => {
    h.fake.addPull(REPO, { number: 7, head: { ref: 'currency', sha: HEAD_SHA }, files: prFiles() });
    h.fake.faults.push(
      serverError('POST', `/repos/${REPO}/pulls/7/reviews`, { afterEffect: true }),
      networkReset('GET', `/repos/${REPO}/pulls/7/files`),
      secondaryRateLimit('POST', `/repos/${REPO}/check-runs`, { retryAfter: 1 }),
    );
    const res = await h.run({ GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: h.event(), 'INPUT_LOG-FILE': join(FIXTURE, 'log.txt') });
    expect(res.code, res.stderr).toBe(0);
    const repo = h.fake.repo(REPO);
    expect(h.fake.requestsTo('POST', `/repos/${REPO}/pulls/7/reviews`).map((r) => r.status)).toEqual([502]); // stored: found, not re-posted
    expect(repo.reviewComments).toHaveLength(1);
    expect(repo.reviewComments[0]).toMatchObject({ path: 'src/receipt.ts', line: 15 });
    expect(repo.checkRuns.filter((c) => c.name === 'Redline')).toHaveLength(1);
    expect(h.fake.violations).toEqual([]);
  });

  it('fork PR with a read-only token → ::error annotations (≤ 10) and the summary, no write attempted', async () => {
    h.fake.addPull(REPO, { number: 8, head: { ref: 'currency', sha: HEAD_SHA, repo: 'mallory/invoicer' }, files: prFiles() });
    const res = await h.run({ GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: h.event({ fork: true, number: 8 }), 'INPUT_LOG-FILE': join(FIXTURE, 'log.txt') });
    expect(res.code, res.stderr).toBe(0);
    const errors = res.stdout.split('\n').filter((l) => l.startsWith('::error '));
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.length).toBeLessThanOrEqual(10);
    expect(errors[0]).toMatch(/^::error title=Redline%3A compile failure,file=src\/receipt\.ts,line=15::TS2554/);
    expect(res.summary).toContain('src/receipt.ts:15');
    expect(writes(h.fake)).toEqual([]);
    expect(res.outputs).toMatchObject({ file: 'src/receipt.ts', line: '15', status: 'located', 'comment-url': '' });
  });

  it('a token whose first write is refused (403) → annotations, and no second write tried', async () => {
    h.fake.addPull(REPO, { number: 7, head: { ref: 'currency', sha: HEAD_SHA }, files: prFiles() });
    h.fake.faults.push({ method: 'POST', path: /./, status: 403, times: 100, body: { message: 'Resource not accessible by integration' } });
    const res = await h.run({ GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: h.event(), 'INPUT_LOG-FILE': join(FIXTURE, 'log.txt') });
    expect(res.code, res.stderr).toBe(0);
    expect(writes(h.fake)).toHaveLength(1);
    expect(res.stdout).toMatch(/^::error .*file=src\/receipt\.ts,line=15::/m);
    expect(res.stdout).toMatch(/^::warning::Redline: the token may not write/m);
    expect(res.summary).toContain('src/receipt.ts:15');
  });

  it('log lines that try ::add-mask:: / ::stop-commands:: act as nothing on the runner', async () => {
    const hostile = LOG.replace(
      /^(.*src\/receipt\.ts\(17,45\).*)$/m,
      ['$1', '2026-11-29T10:15:00.5350000Z ::add-mask::secret', '2026-11-29T10:15:00.5360000Z ::stop-commands::x', '2026-11-29T10:15:00.5370000Z   ::error file=src/evil.ts,line=1::injected', '2026-11-29T10:15:00.5380000Z ##[warning]legacy'].join('\n'),
    );
    const file = join(h.tmp, 'hostile.log');
    writeFileSync(file, hostile);
    const res = await h.run({ 'INPUT_LOG-FILE': file, INPUT_COMMENT: 'annotations' });
    expect(res.code, res.stderr).toBe(0);
    // A hostile line reached the runner's log (as evidence), escaped and inside a stop-commands block ...
    expect(res.stdout).toContain(': :error file=src/evil.ts,line=1::injected');
    // ... and everything that acts as a command is Redline's own: annotations, and the stop-commands fences.
    const acted = commandsIn(res.stdout);
    for (const line of acted) expect(line).toMatch(/^::(error title=Redline[^:]*|warning|stop-commands)::/);
    expect(acted.join('\n')).not.toMatch(/add-mask|evil|injected|stop-commands::x$|##\[/);
  });

  it('mode 1: no log-file → the failed jobs of this run through the API, each diagnosed and reported', async () => {
    h.fake.addPull(REPO, { number: 7, head: { ref: 'currency', sha: HEAD_SHA }, files: prFiles() });
    h.fake.addJob(REPO, { id: 501, run_id: 900, name: 'typecheck', workflow_name: 'CI', head_sha: HEAD_SHA, log: LOG });
    h.fake.addJob(REPO, { id: 502, run_id: 900, name: 'lint', workflow_name: 'CI', head_sha: HEAD_SHA, conclusion: 'success', log: 'ok\n' });
    const res = await h.run({ GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: h.event() });
    expect(res.code, res.stderr).toBe(0);
    expect(h.fake.violations).toEqual([]);
    expect(h.fake.requestsTo('GET', `/repos/${REPO}/actions/runs/900/jobs`)).toHaveLength(1);
    expect(h.fake.requestsTo('GET', /\/actions\/jobs\/502\/logs$/)).toHaveLength(0);
    expect(h.fake.requests.filter((r) => r.host === 'blob').every((r) => !r.headers.authorization)).toBe(true);
    const repo = h.fake.repo(REPO);
    expect(repo.reviewComments).toMatchObject([{ path: 'src/receipt.ts', line: 15 }]);
    expect(repo.reviewComments[0]!.body).toContain('/job/501');
    expect(res.summary).toContain('CI / typecheck');
    expect(res.outputs).toMatchObject({ file: 'src/receipt.ts', line: '15', status: 'located' });
  });
});
