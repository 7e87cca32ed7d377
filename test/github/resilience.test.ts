import { describe, expect, it } from 'vitest';
import { parseConfigText, ConfigError } from '../../src/config.js';
import { pathIgnored } from '../../src/glob-match.js';
import type { GitHub } from '../../src/github/client.js';
import { dropIgnored, jobSelected } from '../../src/github/repo-config.js';
import { resilient, secondaryRetryAfter } from '../../src/github/resilience.js';
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

  it('does not retry a 5xx read (plugin-retry does) nor a 4xx write', async () => {
    const a = scripted([err(500)]);
    await expect(resilient(a.gh, { sleep: async () => {} }).request('GET /x' as never)).rejects.toMatchObject({ status: 500 });
    expect(a.calls).toHaveLength(1);
    const b = scripted([err(422)]);
    await expect(resilient(b.gh, { sleep: async () => {} }).request('POST /x' as never)).rejects.toMatchObject({ status: 422 });
    expect(b.calls).toHaveLength(1);
  });

  it('secondary rate limits: waits retry-after, at most 3 times; gives up at once past 60 s; primary limits are not its business', async () => {
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
