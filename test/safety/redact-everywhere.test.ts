/**
 * Issue 7: redaction in one place, applied to everything that leaves the process. Real-shaped fake
 * secrets (built from parts here, so no scanner flags this file) are put in a log; the GitHub writes
 * (through the local GitHub), the Action's summary, stdout and annotations, and the artifacts must
 * carry none of them, while placeholders stay readable.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Probot, ProbotOctokit } from 'probot';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { publish } from '../../src/github/publish.js';
import { fingerprintMarker } from '../../src/report/fingerprint.js';
import { redactOutgoing, redactRequestParams, redactingGitHub } from '../../src/safety/redact-outgoing.js';
import { redactSecrets } from '../../src/safety/redact.js';
import { generateAppKey, startFakeGitHub, type FakeGitHub } from '../helpers/fake-github/index.js';
import { FIXTURE, HEAD_SHA, REPO, prFiles, startActionHarness, type ActionHarness } from '../action/harness.js';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** A random-looking run of `n` characters of `alphabet` (seeded by `seed`: stable across runs). */
function rnd(seed: string, n: number, alphabet = ALNUM): string {
  let out = '';
  for (let i = 0; out.length < n; i++) for (const b of createHash('sha256').update(`${seed}:${i}`).digest()) if (out.length < n) out += alphabet[b % alphabet.length];
  return out;
}
const b64url = (s: string): string => Buffer.from(s).toString('base64url');

const PEM_BODY = Array.from({ length: 6 }, (_, i) => rnd(`pem${i}`, 64, ALNUM + '+/')).join('\n');
const JWT = [b64url('{"alg":"HS256","typ":"JWT"}'), b64url(`{"sub":"${rnd('sub', 12)}","iat":1700000000}`), rnd('sig', 43, ALNUM + '-_')].join('.');
const SENDGRID = ['S', 'G.', rnd('sg1', 22, ALNUM + '-_'), '.', rnd('sg2', 43, ALNUM + '-_')].join('');

/** name → the secret exactly as it appears in the log. */
const SECRETS: Record<string, string> = {
  ghp: ['gh', 'p_', rnd('ghp', 36)].join(''),
  githubPat: ['github', '_pat_', rnd('pat1', 22), '_', rnd('pat2', 59)].join(''),
  aws: ['AK', 'IA', rnd('aws', 16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567')].join(''),
  slack: ['xo', 'xb-', rnd('s1', 12, '0123456789'), '-', rnd('s2', 13, '0123456789'), '-', rnd('s3', 24)].join(''),
  anthropic: ['sk-', 'ant-', 'api03-', rnd('ant', 93, ALNUM + '-_'), 'AA'].join(''),
  npm: ['np', 'm_', rnd('npm', 36)].join(''),
  pem: PEM_BODY.split('\n')[2]!,
  jwt: JWT,
  password: rnd('pw', 20),
  base64: Buffer.from(['gh', 'p_', rnd('b64', 36)].join('')).toString('base64'),
  sendgrid: SENDGRID,
};
const PLACEHOLDER = `ghp_${'x'.repeat(36)}`;

/** A log where each secret sits among real compiler errors (so it lands in evidence and artifacts). */
function logWithSecrets(): string {
  const lines = readFileSync(join(FIXTURE, 'log.txt'), 'utf8').split('\n');
  const at = lines.findIndex((l) => l.includes('error TS2554'));
  const ts = '2026-11-29T10:15:00.5000000Z ';
  const leak = [
    `GITHUB_TOKEN=${SECRETS.ghp}`,
    `using ${SECRETS.githubPat} for the release`,
    `aws configure set aws_access_key_id ${SECRETS.aws}`,
    `notify: ${SECRETS.slack}`,
    `ANTHROPIC: ${SECRETS.anthropic}`,
    `//registry.npmjs.org/:_authToken=${SECRETS.npm}`,
    '-----BEGIN RSA PRIVATE KEY-----', ...PEM_BODY.split('\n'), '-----END RSA PRIVATE KEY-----',
    `Authorization: Bearer ${SECRETS.jwt}`,
    `password=${SECRETS.password}`,
    `echo ${SECRETS.base64} | base64 -d`,
    `mail relay ${SECRETS.sendgrid}`,
    `example from the docs: ${PLACEHOLDER}`,
  ].map((l) => ts + l);
  // Secrets on the error lines themselves reach the messages, the evidence and every report.
  lines[at] += ` relay ${SECRETS.sendgrid}`;
  lines[at + 1] += ` password=${SECRETS.password} ${SECRETS.ghp}`;
  lines.splice(at, 0, ...leak);
  return lines.join('\n');
}

/** The secrets found in `text` (names); the base64 one also decoded. */
function leaked(text: string): string[] {
  return Object.entries(SECRETS).filter(([, s]) => text.includes(s)).map(([k]) => k);
}

describe('redactOutgoing: the one detector', () => {
  it('removes every secret of the log, keeps the placeholder and the number of lines', async () => {
    const log = logWithSecrets();
    const r = await redactOutgoing(log);
    expect(leaked(r.text)).toEqual([]);
    expect(r.text).toContain(PLACEHOLDER);
    expect(r.text.split('\n')).toHaveLength(log.split('\n').length);
    expect(r.text).toContain('error TS2554');
  });

  it('catches SendGrid on both paths (gitleaks\' rule on the sync one, secretlint\'s preset too on the outgoing one)', async () => {
    const line = `mail relay ${SECRETS.sendgrid}`;
    expect(redactSecrets(line).text).not.toContain(SECRETS.sendgrid);
    expect((await redactOutgoing(line)).text).not.toContain(SECRETS.sendgrid);
    expect((await redactOutgoing(`token ${PLACEHOLDER}`)).text).toContain(PLACEHOLDER);
  });

  it('request hook: every string of a write body, route parameters and reads untouched', async () => {
    const params = { owner: 'o', repo: 'r', pull_number: 1, commit_id: HEAD_SHA, comments: [{ path: 'src/a.ts', line: 2, body: `k ${SECRETS.sendgrid}` }], request: { retries: 0 } };
    const got = await redactRequestParams('POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews', params);
    expect(JSON.stringify(got)).not.toContain(SECRETS.sendgrid);
    expect(got).toMatchObject({ owner: 'o', repo: 'r', pull_number: 1, commit_id: HEAD_SHA, comments: [{ path: 'src/a.ts', line: 2 }], request: { retries: 0 } });
    const read = { owner: 'o', repo: 'r', q: SECRETS.sendgrid };
    expect(await redactRequestParams('GET /search/issues', read)).toBe(read);
  });
});

describe('every GitHub write carries no secret (local GitHub)', () => {
  let fake: FakeGitHub;
  let gh: ProbotOctokit;
  const unthrottled = ProbotOctokit.defaults((o: Record<string, any>) => ({ ...o, throttle: { ...o.throttle, enabled: false } })); // eslint-disable-line @typescript-eslint/no-explicit-any
  beforeEach(async () => {
    const privateKey = generateAppKey();
    fake = await startFakeGitHub({ privateKey });
    fake.addRepo('octo/app');
    fake.addPull('octo/app', { number: 1, head: { ref: 'f', sha: 'a'.repeat(40) }, files: [{ filename: 'src/a.ts', patch: '@@ -1,2 +1,3 @@\n a\n+b\n c' }] });
    gh = await new Probot({ appId: fake.state.app.id, privateKey, baseUrl: fake.url, logLevel: 'fatal', Octokit: unthrottled }).auth(Object.values(fake.state.installations)[0]!.id);
  });
  afterEach(() => fake.close());

  it('publish (comment, edit, check run with annotation) and a direct write through the hook', async () => {
    const log = logWithSecrets();
    const f = { family: 'f'.repeat(16), failure: '1'.repeat(16) };
    const input = { ref: { owner: 'octo', repo: 'app' }, pr: 1, headSha: 'a'.repeat(40), fingerprint: f, title: `t ${SECRETS.sendgrid}`, summary: log, message: log };
    await publish(gh, { ...input, placement: { tier: 'line', file: 'src/a.ts', line: 2 }, body: () => `${fingerprintMarker(f)}\n${log}` });
    // Same failure, new text at the same place: an edit; then identical again: left alone.
    const second = await publish(gh, { ...input, placement: { tier: 'line', file: 'src/a.ts', line: 2 }, body: () => `${fingerprintMarker(f)}\nagain\n${log}` });
    expect(second.action).toBe('updated');
    const third = await publish(gh, { ...input, placement: { tier: 'line', file: 'src/a.ts', line: 2 }, body: () => `${fingerprintMarker(f)}\nagain\n${log}` });
    expect(third.action).toBe('unchanged');
    await publish(gh, { ...input, fingerprint: { family: 'e'.repeat(16), failure: '2'.repeat(16) }, placement: { tier: 'annotation', file: 'src/a.ts', line: 2 }, body: (p) => `${fingerprintMarker({ family: 'e'.repeat(16), failure: '2'.repeat(16) })}\n${p.tier}\n${log}` });
    await redactingGitHub(gh).request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { owner: 'octo', repo: 'app', issue_number: 1, body: log });
    const writes = fake.requests.filter((r) => r.method !== 'GET' && r.method !== 'HEAD' && !r.path.includes('access_tokens'));
    expect(writes.length).toBeGreaterThanOrEqual(6);
    expect(fake.violations).toEqual([]);
    for (const w of writes) expect(leaked(JSON.stringify(w.body)), `${w.method} ${w.path}`).toEqual([]);
    const all = JSON.stringify(writes.map((w) => w.body));
    expect(all).toContain(PLACEHOLDER);
    expect(all).toContain('[REDACTED:');
    expect(all).toContain('error TS2554');
  });
});

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

describe('the Action (bundle): summary, stdout, annotations, GitHub writes, artifacts', () => {
  let h: ActionHarness;
  let dir: string;
  beforeEach(async () => {
    h = await startActionHarness();
    dir = mkdtempSync(join(tmpdir(), 'redline-leak-'));
  });
  afterEach(async () => {
    await h.close();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const fork of [false, true]) {
    it(fork ? 'fork PR: annotations + summary' : 'PR with write access: review comment + check run + summary', async () => {
      const logFile = join(dir, 'log.txt');
      writeFileSync(logFile, logWithSecrets());
      h.fake.addPull(REPO, { number: 7, head: { ref: 'currency', sha: HEAD_SHA }, files: prFiles() });
      const res = await h.run({ GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: h.event({ fork }), 'INPUT_LOG-FILE': logFile, GITHUB_RUN_ATTEMPT: `${randomBytes(2).readUInt16BE()}` });
      expect(res.code, res.stderr).toBe(0);
      expect(res.outputs.status).toBe('located');
      expect(leaked(res.stdout), 'stdout').toEqual([]);
      expect(leaked(res.stderr), 'stderr').toEqual([]);
      expect(leaked(res.summary), 'summary').toEqual([]);
      expect(res.summary).toContain('src/receipt.ts:15');
      const writes = h.fake.requests.filter((r) => r.method !== 'GET' && r.method !== 'HEAD');
      if (fork) expect(res.stdout).toMatch(/^::error /m);
      else expect(writes.length).toBeGreaterThan(0);
      for (const w of writes) expect(leaked(JSON.stringify(w.body)), `${w.method} ${w.path}`).toEqual([]);
      // The evidence printed to the runner shows the log around the error: redacted, placeholder kept.
      expect(res.stdout + res.summary + JSON.stringify(writes.map((w) => w.body))).toContain('[REDACTED:');
      const artifacts = filesUnder(join(h.tmp, 'redline'));
      expect(artifacts.map((p) => p.split('/').pop())).toEqual(expect.arrayContaining(['raw.log', 'cleaned.log', 'diagnosis.json', 'trace.json']));
      for (const p of artifacts) expect(leaked(readFileSync(p, 'utf8')), p).toEqual([]);
      const raw = readFileSync(artifacts.find((p) => p.endsWith('raw.log'))!, 'utf8');
      expect(raw).toContain(PLACEHOLDER);
      expect(raw).toContain('error TS2554');
    });
  }
});
