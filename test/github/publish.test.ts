import { Probot, ProbotOctokit } from 'probot';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fingerprintMarker, type Fingerprint } from '../../src/report/fingerprint.js';
import type { Placement } from '../../src/report/placement.js';
import { publish, type PublishInput } from '../../src/github/publish.js';
import { generateAppKey, startFakeGitHub, type FakeGitHub } from '../helpers/fake-github/index.js';

const REPO = 'octo/app';
const ref = { owner: 'octo', repo: 'app' };
const SHA = 'a'.repeat(40);
let fake: FakeGitHub;
let gh: ProbotOctokit;
// Production keeps Probot's throttling (writes spaced ≥1 s); tests against the local fake do not wait.
const unthrottled = ProbotOctokit.defaults((o: Record<string, any>) => ({ ...o, throttle: { ...o.throttle, enabled: false } })) // eslint-disable-line @typescript-eslint/no-explicit-any;

beforeEach(async () => {
  const privateKey = generateAppKey();
  fake = await startFakeGitHub({ privateKey });
  fake.addRepo(REPO);
  fake.addPull(REPO, { number: 1, head: { ref: 'f', sha: SHA }, files: [{ filename: 'src/a.ts', patch: '@@ -1,2 +1,3 @@\n a\n+b\n c' }] });
  const installationId = Object.values(fake.state.installations)[0]!.id;
  // Authenticated as the App's installation, as in production: comments come from `redline[bot]`.
  gh = await new Probot({ appId: fake.state.app.id, privateKey, baseUrl: fake.url, logLevel: 'fatal', Octokit: unthrottled }).auth(installationId);
});
afterEach(() => fake.close());

const fp = (failure: string): Fingerprint => ({ family: 'f'.repeat(16), failure: failure.repeat(16) });
const input = (p: Placement, f: Fingerprint, text = 'why'): PublishInput => ({
  ref, pr: 1, headSha: SHA, fingerprint: f, placement: p,
  body: (at) => `${fingerprintMarker(f)}\n${text} (${at.tier})`,
  title: 't', summary: 's', message: 'm',
});

describe('publish: one voice per failure', () => {
  it('creates, then leaves an identical body alone, then edits in place', async () => {
    const line: Placement = { tier: 'line', file: 'src/a.ts', line: 2 };
    expect((await publish(gh, input(line, fp('1')))).action).toBe('created');
    expect((await publish(gh, input(line, fp('1')))).action).toBe('unchanged');
    expect((await publish(gh, input(line, fp('2'), 'other failure, same place'))).action).toBe('updated');
    const repo = fake.repo(REPO);
    expect(repo.reviewComments).toHaveLength(1);
    expect(repo.reviewComments[0]!.body).toContain('other failure');
    expect(repo.checkRuns.filter((c) => c.name === 'Redline')).toHaveLength(1);
    expect(fake.violations).toEqual([]);
  });

  it('a pin that moved gets a new comment; the old one is marked superseded, not deleted', async () => {
    await publish(gh, input({ tier: 'line', file: 'src/a.ts', line: 2 }, fp('1')));
    const r = await publish(gh, input({ tier: 'annotation', file: 'src/b.ts', line: 9 }, fp('2')));
    expect(r.action).toBe('created');
    const repo = fake.repo(REPO);
    expect(repo.reviewComments[0]!.body).toContain('redline:superseded');
    expect(repo.issueComments).toHaveLength(1);
    expect(repo.checkRuns.find((c) => c.name === 'Redline')!.annotations).toMatchObject([{ path: 'src/b.ts', start_line: 9 }]);
  });

  it('a 422 on the line anchor falls back to a file-level comment, then to the annotation tier', async () => {
    const r = await publish(gh, input({ tier: 'line', file: 'src/a.ts', line: 40 }, fp('1')));
    expect(r.placement).toEqual({ tier: 'file', file: 'src/a.ts', line: 40 });
    expect(fake.repo(REPO).reviewComments).toMatchObject([{ path: 'src/a.ts', subject_type: 'file' }]);
    const r2 = await publish(gh, input({ tier: 'file', file: 'src/elsewhere.ts', line: 3 }, { family: 'e'.repeat(16), failure: '9'.repeat(16) }));
    expect(r2.placement.tier).toBe('annotation');
    expect(fake.repo(REPO).issueComments).toHaveLength(1);
  });

  it('the same failure from another job is not said twice', async () => {
    await publish(gh, input({ tier: 'line', file: 'src/a.ts', line: 2 }, fp('1')));
    const other = { family: 'e'.repeat(16), failure: '1'.repeat(16) };
    expect((await publish(gh, input({ tier: 'line', file: 'src/a.ts', line: 2 }, other))).action).toBe('said-elsewhere');
    expect(fake.repo(REPO).reviewComments).toHaveLength(1);
  });
});
