import { describe, expect, it } from 'vitest';
import { parseConfigText, ConfigError } from '../../src/config.js';
import { pathIgnored } from '../../src/glob-match.js';
import type { GitHub } from '../../src/github/client.js';
import { dropIgnored, jobSelected } from '../../src/github/repo-config.js';
import { isConnectionDropped } from '../../src/github/client.js';
import { primaryResetWaitMs, resilient, secondaryRetryAfter } from '../../src/github/resilience.js';
import type { Diagnosis } from '../../src/types.js';

const err = (status: number, message = 'x', headers: Record<string, string> = {}) => Object.assign(new Error(message), { status, response: { headers, data: { message } } });

/** A client that answers from a script: an Error is thrown, anything else returned. */
function scripted(answers: unknown[]) {
  const calls: { route: string; params: Record<string, unknown> }[] = [];
  const gh = { request: async (route: string, params: Record<string, unknown>) => {
    calls.push({ route, params });
    const a = answers.shift();
    if (a instanceof Error) throw a;
    return a ?? { status: 200, data: {} };
  } } as unknown as GitHub;
  return { gh, calls };
}

describe('resilient(): bounded retries', () => {
  it('retries a 5xx write with doubling waits, at most 3 times, and takes it out of plugin-retry', async () => {
    const waits: number[] = [];
    const { gh, calls } = scripted([err(502), err(502), err(502), err(502), { status: 200 }]);
    const r = resilient(gh, { sleep: async (ms) => void waits.push(ms) });
    await expect(r.request('PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}', { owner: 'o', repo: 'r', comment_id: 1 } as never)).rejects.toMatchObject({ status: 502 });
    expect(calls).toHaveLength(4);
    expect(waits).toEqual([1000, 2000, 4000]);
    expect(calls[0]!.params.request).toEqual({ retries: 0 });
  });

  it('retries a 5xx read itself (out of plugin-retry too) with doubling waits; never a 4xx write', async () => {
    const waits: number[] = [];
    const read = scripted([err(502), err(503), { status: 200, data: 'ok' }]);
    await expect(resilient(read.gh, { sleep: async (ms) => void waits.push(ms) }).request('GET /x', { request: { redirect: 'manual' } } as never)).resolves.toMatchObject({ data: 'ok' });
    expect(read.calls).toHaveLength(3);
    expect(waits).toEqual([1000, 2000]);
    expect(read.calls[0]!.params.request).toEqual({ redirect: 'manual', retries: 0 });
    const b = scripted([err(422)]);
    await expect(resilient(b.gh, { sleep: async () => {} }).request('POST /x' as never)).rejects.toMatchObject({ status: 422 });
    expect(b.calls).toHaveLength(1);
  });

  it('secondary rate limits: waits retry-after, at most 3 times; gives up at once past 60 s', async () => {
    const limit = (after?: string) => err(403, 'You have exceeded a secondary rate limit.', after ? { 'retry-after': after } : {});
    const waits: number[] = [];
    const a = scripted([limit('2'), limit('2'), limit('2'), limit('2')]);
    await expect(resilient(a.gh, { sleep: async (ms) => void waits.push(ms) }).request('GET /x' as never)).rejects.toMatchObject({ status: 403 });
    expect(waits).toEqual([2000, 2000, 2000]);
    const b = scripted([limit('120')]);
    await expect(resilient(b.gh, { sleep: async () => {} }).request('GET /x' as never)).rejects.toMatchObject({ status: 403 });
    expect(b.calls).toHaveLength(1);
    expect(secondaryRetryAfter(err(403, 'API rate limit exceeded', { 'x-ratelimit-remaining': '0', 'retry-after': '1' }), 60)).toBeUndefined();
    expect(secondaryRetryAfter(err(403, 'Resource not accessible by integration'), 60)).toBeUndefined();
    expect(secondaryRetryAfter(limit(), 60)).toBe(60);
  });
});

describe('resilient(): primary rate limits', () => {
  const NOW = Date.parse('2026-11-29T12:00:00Z');
  const primary = (resetInS: number, date?: number) =>
    err(403, 'API rate limit exceeded for installation ID 1.', {
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(NOW / 1000 + resetInS),
      ...(date !== undefined ? { date: new Date(date).toUTCString() } : {}),
    });

  it('waits until x-ratelimit-reset plus a second, then asks again (reads and writes)', async () => {
    const waits: number[] = [];
    const a = scripted([primary(3), { status: 200, data: 'ok' }]);
    const r = resilient(a.gh, { sleep: async (ms) => void waits.push(ms), now: () => NOW });
    await expect(r.request('GET /x' as never)).resolves.toMatchObject({ data: 'ok' });
    const b = scripted([primary(0), { status: 201, data: 'made' }]);
    await expect(resilient(b.gh, { sleep: async (ms) => void waits.push(ms), now: () => NOW }).request('POST /x' as never)).resolves.toMatchObject({ data: 'made' });
    expect(waits).toEqual([4000, 1000]);
    expect(b.calls).toHaveLength(2);
  });

  it("measures the reset against GitHub's date header, not our (skewed) clock", () => {
    // Our clock runs 10 minutes fast: by it the reset has passed; by GitHub's it is 5 s away.
    expect(primaryResetWaitMs(primary(5, NOW), NOW + 600_000, 60_000)).toBe(6000);
    expect(primaryResetWaitMs(primary(5), NOW + 600_000, 60_000)).toBe(1000);
    expect(primaryResetWaitMs(err(403, 'x', { 'x-ratelimit-remaining': '0' }), NOW, 60_000)).toBe(60_000);
    expect(primaryResetWaitMs(err(403, 'Resource not accessible by integration', { 'x-ratelimit-remaining': '4999' }), NOW, 60_000)).toBeUndefined();
    expect(primaryResetWaitMs(err(500), NOW, 60_000)).toBeUndefined();
  });

  it('gives up at once on a reset further away than maxResetWaitS, and after 3 waits', async () => {
    const far = scripted([primary(3600)]);
    const slept: number[] = [];
    await expect(resilient(far.gh, { sleep: async (ms) => void slept.push(ms), now: () => NOW }).request('GET /x' as never)).rejects.toMatchObject({ status: 403 });
    expect(far.calls).toHaveLength(1);
    expect(slept).toEqual([]);
    const configured = scripted([primary(90), { status: 200 }]);
    await resilient(configured.gh, { sleep: async (ms) => void slept.push(ms), now: () => NOW, maxResetWaitS: 120 }).request('GET /x' as never);
    expect(slept).toEqual([91_000]);
    const stuck = scripted([primary(1), primary(1), primary(1), primary(1), { status: 200 }]);
    await expect(resilient(stuck.gh, { sleep: async () => {}, now: () => NOW }).request('GET /x' as never)).rejects.toMatchObject({ status: 403 });
    expect(stuck.calls).toHaveLength(4);
  });
});

describe('resilient(): dropped connections', () => {
  /** What Octokit throws when the socket closed without an answer. */
  const dropped = () => Object.assign(new Error('other side closed'), { status: 500, cause: Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }) }) });
  const hangUp = () => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });

  it('tells a dropped connection from an answer', () => {
    expect(isConnectionDropped(dropped())).toBe(true);
    expect(isConnectionDropped(hangUp())).toBe(true);
    expect(isConnectionDropped(new TypeError('fetch failed'))).toBe(true);
    expect(isConnectionDropped(err(500, 'other side closed'))).toBe(false); // it came with a response
    expect(isConnectionDropped(err(502))).toBe(false);
    expect(isConnectionDropped(new Error('boom'))).toBe(false);
  });

  it('retries a dropped read (no plugin-retry) and a dropped PATCH with the doubling wait, bounded', async () => {
    const reasons: string[] = [];
    const onRetry = (i: { reason: string }) => void reasons.push(i.reason);
    const read = scripted([hangUp(), dropped(), { status: 200, data: 'ok' }]);
    await expect(resilient(read.gh, { sleep: async () => {}, onRetry }).request('GET /x' as never)).resolves.toMatchObject({ data: 'ok' });
    const patch = scripted([dropped(), dropped(), dropped(), dropped()]);
    await expect(resilient(patch.gh, { sleep: async () => {}, onRetry }).request('PATCH /x' as never)).rejects.toThrow('other side closed');
    expect(patch.calls).toHaveLength(4);
    expect(reasons).toEqual(Array(5).fill('network-reset'));
  });

  it('a dropped comment POST: looks first and adopts the comment that landed instead of posting it again', async () => {
    const body = `hi\n<!-- redline:fp=${'a'.repeat(16)}.${'b'.repeat(16)} -->`;
    const landed = { id: 42, body, user: { login: 'redline[bot]', type: 'Bot' } };
    const s = scripted([dropped(), { status: 200, data: [landed] }]);
    const out = await resilient(s.gh, { sleep: async () => {} }).request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { owner: 'o', repo: 'r', issue_number: 7, body } as never);
    expect(out).toMatchObject({ data: { id: 42 } });
    expect(s.calls.map((c) => c.route)).toEqual(['POST /repos/{owner}/{repo}/issues/{issue_number}/comments', 'GET /repos/{owner}/{repo}/issues/{issue_number}/comments']);
  });

  it('a lookup that fails throws instead of posting blind', async () => {
    const body = `hi\n<!-- redline:fp=${'a'.repeat(16)}.${'b'.repeat(16)} -->`;
    const s = scripted([err(502), err(404, 'Not Found')]);
    await expect(resilient(s.gh, { sleep: async () => {} }).request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { owner: 'o', repo: 'r', issue_number: 7, body } as never)).rejects.toMatchObject({ status: 404 });
    expect(s.calls.filter((c) => c.route.startsWith('POST'))).toHaveLength(1);
  });
});

describe('config for the App', () => {
  it('parses the text into the validated config with defaults, and throws ConfigError naming the field', () => {
    expect(parseConfigText('')).toMatchObject({ enabled: true, ignorePaths: [], comment: 'review', branches: [] });
    expect(parseConfigText('').jobs).toBeUndefined();
    expect(parseConfigText('enabled: false\njobs: [build]\nllm:\n  maxTurns: 3\n')).toMatchObject({ enabled: false, jobs: ['build'], llm: { maxTurns: 3 } });
    expect(() => parseConfigText('comment: loud')).toThrow(ConfigError);
    expect(() => parseConfigText('jobs: build')).toThrow(/jobs: /);
    expect(() => parseConfigText('enabled: [')).toThrow(/is not valid YAML/);
  });

  it('globs: job names match whole or after the workflow; paths like .gitignore', () => {
    expect(jobSelected({ jobs: ['test (*)'] }, 'CI', 'test (node 20)')).toBe(true);
    expect(jobSelected({ jobs: ['CI / build'] }, 'CI', 'build')).toBe(true);
    expect(jobSelected({ jobs: ['build'] }, 'CI', 'build-docs')).toBe(false);
    expect(jobSelected({}, 'CI', 'anything')).toBe(true);
    expect(pathIgnored('src/gen/api.generated.ts', ['*.generated.ts'])).toBe(true);
    expect(pathIgnored('vendor/lib/x.js', ['vendor/**'])).toBe(true);
    expect(pathIgnored('pkg/dist/x.js', ['dist/'])).toBe(true);
    expect(pathIgnored('src/x.ts', ['src/*.js', 'lib/**'])).toBe(false);
    expect(pathIgnored('src/a/b.ts', ['src/*.ts'])).toBe(false);
    expect(pathIgnored('src/a/b.ts', ['src/**/*.{ts,js}'])).toBe(true);
  });

  it('dropIgnored: a diagnosis left without findings no longer pins', () => {
    const f = (file: string) => ({ file, line: 1, message: 'm' }) as Diagnosis['findings'][number];
    const d = { status: 'located', findings: [f('gen/a.ts'), f('src/b.ts')], summary: 'S.' } as unknown as Diagnosis;
    expect(dropIgnored(d, ['gen/**']).findings.map((x) => x.file)).toEqual(['src/b.ts']);
    const none = dropIgnored(d, ['**/*.ts']);
    expect(none).toMatchObject({ status: 'no-location', findings: [] });
    expect(none.summary).toMatch(/ignores/);
  });
});
