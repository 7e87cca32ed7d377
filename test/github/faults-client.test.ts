/**
 * The GitHub client under the local GitHub's faults, with real Octokits: what plugin-retry does for
 * Probot's client and what resilience.ts and logs.ts add (primary limits, dropped connections, expired
 * log links).
 */
import { Octokit } from '@octokit/rest';
import { ProbotOctokit } from 'probot';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GitHub } from '../../src/github/client.js';
import { LogNotReadyError } from '../../src/github/errors.js';
import { openJobLog } from '../../src/github/logs.js';
import { resilient } from '../../src/github/resilience.js';
import { expiredLogLink, networkReset, primaryRateLimit, serverError, startFakeGitHub, type FakeGitHub } from '../helpers/fake-github/index.js';

const REPO = 'octo/app';
const ref = { owner: 'octo', repo: 'app' };
const SHA = 'a'.repeat(40);
const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const FP = `<!-- redline:fp=${'a'.repeat(16)}.${'b'.repeat(16)} -->`;

let fake: FakeGitHub;
let token: string;
beforeEach(async () => {
  fake = await startFakeGitHub();
  fake.addRepo(REPO);
  fake.addPull(REPO, { number: 7, head: { ref: 'x', sha: SHA } });
  token = fake.createToken('redline[bot]');
  fake.state.users['redline[bot]']!.type = 'Bot';
});
afterEach(async () => {
  await fake.close();
});

/** @octokit/rest as the Action makes it: no plugin-retry, no throttling. */
const bare = (): GitHub => new Octokit({ baseUrl: fake.url, auth: token, log: quiet }) as unknown as GitHub;
/** Probot's Octokit as the App's tests make it: throttling off, plugin-retry on (its 1/4/9 s waits shortened, should it retry). */
const probot = (): GitHub => {
  const O = ProbotOctokit.defaults((o: Record<string, unknown>) => ({ ...o, throttle: { enabled: false }, retry: { retryAfterBaseValue: 1 } }));
  return new O({ auth: token, authStrategy: undefined, baseUrl: fake.url, log: quiet }) as unknown as GitHub;
};
const statuses = (method: string, path: string | RegExp) => fake.requestsTo(method, path).map((r) => r.status);

describe('reads: 5xx and dropped connections', () => {
  it("Probot's client: resilient() takes them out of plugin-retry and retries them with its own (injected) doubling waits", async () => {
    fake.faults.push(networkReset('GET', `/repos/${REPO}`), serverError('GET', `/repos/${REPO}`));
    const waits: number[] = [];
    const r = await resilient(probot(), { sleep: async (ms) => void waits.push(ms) }).request('GET /repos/{owner}/{repo}', ref);
    expect(r.status).toBe(200);
    expect(statuses('GET', `/repos/${REPO}`)).toEqual([0, 502, 200]);
    expect(waits).toEqual([1000, 2000]);
  });

  it('the same with the Action\'s @octokit/rest (no plugin-retry)', async () => {
    fake.faults.push(networkReset('GET', `/repos/${REPO}`), serverError('GET', `/repos/${REPO}`, { status: 503 }));
    const waits: number[] = [];
    const r = await resilient(bare(), { sleep: async (ms) => void waits.push(ms) }).request('GET /repos/{owner}/{repo}', ref);
    expect(r.status).toBe(200);
    expect(statuses('GET', `/repos/${REPO}`)).toEqual([0, 503, 200]);
    expect(waits).toEqual([1000, 2000]);
  });

  it("why: plugin-retry's own waits grow across the requests of one client (its retry count lives in shared defaults)", async () => {
    const O = ProbotOctokit.defaults((o: Record<string, unknown>) => ({ ...o, throttle: { enabled: false }, retry: { retryAfterBaseValue: 50 } }));
    const gh = new O({ auth: token, authStrategy: undefined, baseUrl: fake.url, log: quiet });
    const firstRetryWait = async (): Promise<number> => {
      fake.faults.push(serverError('GET', `/repos/${REPO}`));
      const before = fake.requests.length;
      await gh.request('GET /repos/{owner}/{repo}', ref);
      const [failed, retried] = fake.requests.slice(before);
      return retried!.at - failed!.at;
    };
    const first = await firstRetryWait();
    const second = await firstRetryWait();
    // 1 × base, then 4 × base for the very same situation. If this starts failing, plugin-retry was fixed.
    expect(first).toBeLessThan(150);
    expect(second).toBeGreaterThanOrEqual(190);
  });

  it('gives up after 3 retries', async () => {
    fake.faults.push(networkReset('GET', `/repos/${REPO}`, { times: 10 }));
    await expect(resilient(bare(), { sleep: async () => {} }).request('GET /repos/{owner}/{repo}', ref)).rejects.toMatchObject({ status: 500 });
    expect(statuses('GET', `/repos/${REPO}`)).toEqual([0, 0, 0, 0]);
  });
});

describe('primary rate limit (403, x-ratelimit-remaining: 0)', () => {
  it('waits for x-ratelimit-reset as GitHub sends it (by its date header), then succeeds; plugin-retry leaves the 403 alone', async () => {
    fake.faults.push(primaryRateLimit('GET', `/repos/${REPO}/pulls/7`, { resetInS: 2 }));
    const waits: number[] = [];
    const r = await resilient(probot(), { sleep: async (ms) => void waits.push(ms) }).request('GET /repos/{owner}/{repo}/pulls/{pull_number}', { ...ref, pull_number: 7 });
    expect(r.status).toBe(200);
    expect(statuses('GET', `/repos/${REPO}/pulls/7`)).toEqual([403, 200]);
    // reset is 2-3 s after GitHub's `date` (whole seconds), plus our second.
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThanOrEqual(3000);
    expect(waits[0]).toBeLessThanOrEqual(4000);
  });

  it('a reset past maxResetWaitS is given up at once', async () => {
    fake.faults.push(primaryRateLimit('POST', `/repos/${REPO}/issues/7/comments`, { resetInS: 30 }));
    const waits: number[] = [];
    const gh = resilient(bare(), { sleep: async (ms) => void waits.push(ms), maxResetWaitS: 10 });
    await expect(gh.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...ref, issue_number: 7, body: 'x' })).rejects.toMatchObject({ status: 403 });
    expect(waits).toEqual([]);
    expect(fake.repo(REPO).issueComments).toHaveLength(0);
  });
});

describe('writes: a dropped connection', () => {
  it('before GitHub acted: looked up, not there, posted again: one comment', async () => {
    fake.faults.push(networkReset('POST', `/repos/${REPO}/issues/7/comments`));
    const gh = resilient(probot(), { sleep: async () => {} });
    await gh.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...ref, issue_number: 7, body: `hello\n${FP}` });
    expect(statuses('POST', `/repos/${REPO}/issues/7/comments`)).toEqual([0, 201]);
    expect(fake.repo(REPO).issueComments).toHaveLength(1);
  });

  it('after GitHub stored it: found by its fingerprint and adopted, not posted twice', async () => {
    fake.faults.push(networkReset('POST', `/repos/${REPO}/issues/7/comments`, { afterEffect: true }));
    const gh = resilient(probot(), { sleep: async () => {} });
    const r = await gh.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...ref, issue_number: 7, body: `hello\n${FP}` });
    expect(statuses('POST', `/repos/${REPO}/issues/7/comments`)).toEqual([0]);
    expect(fake.repo(REPO).issueComments).toHaveLength(1);
    expect((r.data as { id: number }).id).toBe(fake.repo(REPO).issueComments[0]!.id);
    expect(fake.violations).toEqual([]);
  });
});

describe('job log links', () => {
  const LOG_PATH = /^\/_blob\/job-logs\//;
  const noWait = { baseDelayMs: 1, sleep: async () => {} };
  const text = async (s: NodeJS.ReadableStream): Promise<string> => {
    let out = '';
    for await (const c of s) out += c.toString();
    return out;
  };

  it('an expired link (403 from the blob host) or a dropped download: a fresh redirect is asked for at once', async () => {
    fake.addJob(REPO, { id: 21, head_sha: SHA, log: 'the log\n' });
    fake.faults.push(expiredLogLink(), expiredLogLink({ reset: true }));
    const slept: number[] = [];
    const log = await openJobLog(resilient(bare()), ref, 21, { ...noWait, sleep: async (ms) => void slept.push(ms) });
    expect(await text(log)).toBe('the log\n');
    expect(statuses('GET', `/repos/${REPO}/actions/jobs/21/logs`)).toEqual([302, 302, 302]);
    expect(fake.requests.filter((r) => r.host === 'blob' && LOG_PATH.test(r.path)).map((r) => r.status)).toEqual([403, 0, 200]);
    expect(slept).toEqual([]);
    expect(fake.violations).toEqual([]);
  });

  it('links that keep failing: bounded (linkAttempts per attempt, then the attempts with their waits)', async () => {
    fake.addJob(REPO, { id: 22, head_sha: SHA, log: 'x' });
    fake.faults.push(expiredLogLink({ times: 100 }));
    await expect(openJobLog(resilient(bare()), ref, 22, { ...noWait, attempts: 2, linkAttempts: 3 })).rejects.toBeInstanceOf(LogNotReadyError);
    expect(statuses('GET', `/repos/${REPO}/actions/jobs/22/logs`)).toHaveLength(6);
  });
});

describe('check-run updates: GitHub appends a PATCH\'s annotations', () => {
  // Check runs need an installation token: the bot's token becomes one of the repository's installation.
  beforeEach(() => {
    const installation = Object.values(fake.state.installations).find((i) => i.repos.includes(REPO))!;
    Object.assign(fake.state.tokens[token]!, { installationId: installation.id });
  });
  it('a 502 after the update landed: sent again without the annotations, so each shows once', async () => {
    const gh = resilient(bare(), { sleep: async () => {} });
    const { data } = await gh.request('POST /repos/{owner}/{repo}/check-runs', { ...ref, name: 'Redline', head_sha: SHA, external_id: 'x' });
    const id = (data as { id: number }).id;
    fake.faults.push(serverError('PATCH', `/repos/${REPO}/check-runs/${id}`, { afterEffect: true }));
    const annotation = { path: 'src/a.ts', start_line: 3, end_line: 3, annotation_level: 'failure', message: 'Expected 2 arguments, but got 1.' };
    await gh.request('PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}', { ...ref, check_run_id: id, status: 'completed', conclusion: 'neutral', output: { title: 't', summary: 's', annotations: [annotation] } });
    expect(statuses('PATCH', `/repos/${REPO}/check-runs/${id}`)).toEqual([502, 200]);
    const { data: anns } = await gh.request('GET /repos/{owner}/{repo}/check-runs/{check_run_id}/annotations', { ...ref, check_run_id: id });
    expect(anns).toHaveLength(1);
    expect(fake.violations).toEqual([]);
  });

  it('a 502 before anything landed: sent again with them', async () => {
    const gh = resilient(bare(), { sleep: async () => {} });
    const { data } = await gh.request('POST /repos/{owner}/{repo}/check-runs', { ...ref, name: 'Redline', head_sha: SHA, external_id: 'y' });
    const id = (data as { id: number }).id;
    fake.faults.push(serverError('PATCH', `/repos/${REPO}/check-runs/${id}`));
    const annotation = { path: 'src/a.ts', start_line: 3, end_line: 3, annotation_level: 'failure', message: 'boom' };
    await gh.request('PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}', { ...ref, check_run_id: id, output: { title: 't', summary: 's', annotations: [annotation] } });
    const { data: anns } = await gh.request('GET /repos/{owner}/{repo}/check-runs/{check_run_id}/annotations', { ...ref, check_run_id: id });
    expect(anns).toHaveLength(1);
  });
});
