import { mkdtempSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ProbotOctokit } from 'probot';
import { Octokit } from '@octokit/rest';
import { verify } from '@octokit/webhooks-methods';
import { x as extract } from 'tar';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  deliver,
  examplePayload,
  FAULT_KINDS,
  generateAppKey,
  makeTarball,
  mulberry32,
  startFakeGitHub,
  type FakeGitHub,
  type FaultMix,
} from './index.js';

const REPO = 'acme/widgets';
const HEAD = 'a'.repeat(40);
const PATCH = [
  '@@ -1,4 +1,5 @@',
  ' import { a } from "./a";',
  '-const x = 1;',
  '+const x: number = "1";',
  '+const y = 2;',
  ' export { x };',
  '@@ -20,3 +21,4 @@ function f() {',
  ' line21',
  '+line22',
  ' line23',
  ' line24',
].join('\n');

const quiet = { debug() {}, info() {}, warn() {}, error() {} };
let fake: FakeGitHub;
let octokit: Octokit; // acts as the App's installation (a bot)
let installationToken: string;

beforeAll(async () => {
  fake = await startFakeGitHub();
  fake.addRepo(REPO, { permissions: { alice: 'write', bob: 'read', carol: 'maintain' }, contents: { '.github/redline.yml': 'enabled: true\n' } });
  fake.addPull(REPO, {
    number: 7,
    user: 'alice',
    head: { ref: 'feature', sha: HEAD },
    files: [
      { filename: 'src/x.ts', status: 'modified', patch: PATCH },
      ...Array.from({ length: 45 }, (_, i) => ({ filename: `docs/f${i}.md`, status: 'added' as const, patch: '@@ -0,0 +1 @@\n+hi' })),
    ],
  });
  const inst = Object.values(fake.state.installations)[0]!;
  const res = await fetch(`${fake.url}/app/installations/${inst.id}/access_tokens`, {
    method: 'POST',
    headers: { authorization: `Bearer ${unsignedJwt()}`, 'content-type': 'application/json' },
    body: '{}',
  });
  installationToken = ((await res.json()) as { token: string }).token;
  octokit = new Octokit({ baseUrl: fake.url, auth: installationToken, log: quiet });
});

afterAll(async () => {
  await fake.close();
});

afterEach((ctx) => {
  // Every test that does not provoke a violation on purpose must leave none behind.
  if (!ctx.task.name.includes('[violation]')) expect(fake.violations).toEqual([]);
  fake.violations.length = 0;
});

/** A structurally valid App JWT (the fake verifies the signature only when given the private key). */
function unsignedJwt(iss = 1): string {
  const b = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const t = Math.floor(Date.now() / 1000);
  return `${b({ alg: 'RS256', typ: 'JWT' })}.${b({ iat: t - 30, exp: t + 540, iss })}.${Buffer.from('sig').toString('base64url')}`;
}

describe('routing and validation', () => {
  it('serves under / and /api/v3', async () => {
    const a = await octokit.rest.pulls.get({ owner: 'acme', repo: 'widgets', pull_number: 7 });
    const v3 = new Octokit({ baseUrl: fake.apiV3Url, auth: installationToken, log: quiet });
    const b = await v3.rest.pulls.get({ owner: 'acme', repo: 'widgets', pull_number: 7 });
    expect(a.data.head.sha).toBe(HEAD);
    expect(b.data.url).toBe(`${fake.apiV3Url}/repos/acme/widgets/pulls/7`);
    expect(fake.requests.some((r) => r.prefix === '/api/v3' && r.operationId === 'pulls/get')).toBe(true);
  });

  it('[violation] a review comment missing `path` → 422 and recorded', async () => {
    const err = await octokit
      .request('POST /repos/{owner}/{repo}/pulls/{pull_number}/comments', { owner: 'acme', repo: 'widgets', pull_number: 7, body: 'x', commit_id: HEAD, line: 2 } as never)
      .catch((e: { status: number }) => e);
    expect(err).toMatchObject({ status: 422 });
    expect(fake.violations).toHaveLength(1);
    expect(fake.violations[0]).toMatchObject({ kind: 'schema', operationId: 'pulls/create-review-comment' });
    expect(fake.repo(REPO).reviewComments).toHaveLength(0);
  });

  it('[violation] a check run with conclusion "bogus" → 422 and recorded', async () => {
    const err = await octokit.rest.checks
      .create({ owner: 'acme', repo: 'widgets', name: 'Redline', head_sha: HEAD, conclusion: 'bogus' as never })
      .catch((e: { status: number }) => e);
    expect(err).toMatchObject({ status: 422 });
    expect(fake.violations[0]).toMatchObject({ kind: 'schema', path: '/repos/acme/widgets/check-runs' });
  });

  it('[violation] an unknown route → 404 and recorded; bad JSON → 400', async () => {
    const err = await octokit.request('GET /repos/{owner}/{repo}/no-such-thing', { owner: 'acme', repo: 'widgets' }).catch((e: { status: number }) => e);
    expect(err).toMatchObject({ status: 404 });
    const res = await fetch(`${fake.url}/repos/acme/widgets/issues/7/comments`, { method: 'POST', headers: { authorization: `token ${installationToken}`, 'content-type': 'application/json' }, body: '{nope' });
    expect(res.status).toBe(400);
    expect(fake.violations.map((v) => v.kind)).toEqual(['route', 'json']);
  });

  it('[violation] a bad path param type is caught (pull_number not an integer)', async () => {
    const res = await fetch(`${fake.url}/repos/acme/widgets/pulls/seven`, { headers: { authorization: `token ${installationToken}` } });
    expect(res.status).toBe(422);
    expect(fake.violations[0]?.kind).toBe('schema');
  });

  it('[violation] unknown tokens get 401 Bad credentials', async () => {
    const bad = new Octokit({ baseUrl: fake.url, auth: 'ghs_nope', log: quiet });
    await expect(bad.rest.pulls.get({ owner: 'acme', repo: 'widgets', pull_number: 7 })).rejects.toMatchObject({ status: 401 });
    expect(fake.violations[0]?.kind).toBe('auth');
  });
});

describe('app auth', () => {
  it('ProbotOctokit (real @octokit/auth-app): JWT verified, installation token issued and used', async () => {
    const privateKey = generateAppKey();
    expect(privateKey).toMatch(/^-----BEGIN RSA PRIVATE KEY-----/);
    const gh = await startFakeGitHub({ app: { id: 4242 }, privateKey });
    try {
      gh.addRepo('o/r');
      const pr = gh.addPull('o/r', { head: { ref: 'f', sha: HEAD } });
      const installationId = gh.state.installations[Object.keys(gh.state.installations)[0] as unknown as number]!.id;
      const appOcto = new ProbotOctokit({ baseUrl: gh.url, auth: { appId: 4242, privateKey }, log: quiet });
      const { data: installs } = await appOcto.rest.apps.listInstallations();
      expect(installs.map((i) => i.id)).toEqual([installationId]);
      const { data: repoInst } = await appOcto.rest.apps.getRepoInstallation({ owner: 'o', repo: 'r' });
      expect(repoInst.id).toBe(installationId);
      const instOcto = new ProbotOctokit({ baseUrl: gh.url, auth: { appId: 4242, privateKey, installationId }, log: quiet });
      const { data } = await instOcto.rest.issues.createComment({ owner: 'o', repo: 'r', issue_number: pr.number, body: 'hi' });
      expect(data.user?.login).toBe('redline[bot]');
      expect(data.performed_via_github_app?.slug).toBe('redline');
      expect(gh.violations).toEqual([]);
      // A JWT signed with another key is refused.
      const other = new ProbotOctokit({ baseUrl: gh.url, auth: { appId: 4242, privateKey: generateAppKey() }, log: quiet });
      await expect(other.rest.apps.listInstallations()).rejects.toMatchObject({ status: 401 });
    } finally {
      await gh.close();
    }
  });
});

describe('endpoints', () => {
  it('contents: base64 config, 404 when absent', async () => {
    const { data } = await octokit.rest.repos.getContent({ owner: 'acme', repo: 'widgets', path: '.github/redline.yml', ref: HEAD });
    if (Array.isArray(data) || data.type !== 'file') throw new Error('expected a file');
    expect(Buffer.from(data.content, 'base64').toString()).toBe('enabled: true\n');
    await expect(octokit.rest.repos.getContent({ owner: 'acme', repo: 'widgets', path: 'nope.yml' })).rejects.toMatchObject({ status: 404 });
  });

  it('pulls: get, list by head, commits → pulls (fork PR found by SHA)', async () => {
    fake.addRepo('forker/widgets', { fork_of: REPO, installation: false });
    const forkSha = 'f'.repeat(40);
    fake.addPull(REPO, { number: 8, head: { ref: 'patch-1', sha: forkSha, repo: 'forker/widgets' } });
    const { data: pr } = await octokit.rest.pulls.get({ owner: 'acme', repo: 'widgets', pull_number: 8 });
    expect(pr.head.repo?.full_name).toBe('forker/widgets');
    expect(pr.head.repo?.fork).toBe(true);
    expect(pr.user.login).toBe('forker');
    const { data: byHead } = await octokit.rest.pulls.list({ owner: 'acme', repo: 'widgets', state: 'open', head: 'forker:patch-1' });
    expect(byHead.map((p) => p.number)).toEqual([8]);
    const { data: bySha } = await octokit.rest.repos.listPullRequestsAssociatedWithCommit({ owner: 'acme', repo: 'widgets', commit_sha: forkSha });
    expect(bySha.map((p) => p.number)).toEqual([8]);
  });

  it('PR files are paginated with a Link header', async () => {
    const first = await octokit.rest.pulls.listFiles({ owner: 'acme', repo: 'widgets', pull_number: 7, per_page: 20 });
    expect(first.data).toHaveLength(20);
    expect(first.headers.link).toContain('rel="next"');
    expect(first.headers.link).toContain('page=3>; rel="last"');
    const all = await octokit.paginate(octokit.rest.pulls.listFiles, { owner: 'acme', repo: 'widgets', pull_number: 7, per_page: 20 });
    expect(all).toHaveLength(46);
    expect(all[0]).toMatchObject({ filename: 'src/x.ts', additions: 3, deletions: 1, patch: PATCH });
  });

  it('collaborator permission (role names mapped like GitHub)', async () => {
    const perm = async (username: string) => (await octokit.rest.repos.getCollaboratorPermissionLevel({ owner: 'acme', repo: 'widgets', username })).data;
    expect((await perm('alice')).permission).toBe('write');
    expect((await perm('bob')).permission).toBe('read');
    expect(await perm('carol')).toMatchObject({ permission: 'write', role_name: 'maintain' });
    expect((await perm('acme')).permission).toBe('admin');
    expect((await perm('stranger')).permission).toBe('read');
  });

  it('issue comments CRUD, body too long, reactions', async () => {
    const { data: c } = await octokit.rest.issues.createComment({ owner: 'acme', repo: 'widgets', issue_number: 7, body: 'first <!-- redline:fp=1 -->' });
    expect(c).toMatchObject({ id: expect.any(Number), node_id: expect.any(String), html_url: expect.stringContaining('#issuecomment-'), user: { login: 'redline[bot]', type: 'Bot' } });
    await octokit.rest.issues.updateComment({ owner: 'acme', repo: 'widgets', comment_id: c.id, body: 'edited' });
    const listed = await octokit.paginate(octokit.rest.issues.listComments, { owner: 'acme', repo: 'widgets', issue_number: 7 });
    expect(listed.map((x) => x.body)).toEqual(['edited']);
    const user = fake.addIssueComment(REPO, 7, { user: 'alice', body: '/redline retry' });
    const { data: reaction, status } = await octokit.rest.reactions.createForIssueComment({ owner: 'acme', repo: 'widgets', comment_id: user.id, content: 'eyes' });
    expect(status).toBe(201);
    expect(reaction).toMatchObject({ content: 'eyes', user: { login: 'redline[bot]' } });
    const again = await octokit.rest.reactions.createForIssueComment({ owner: 'acme', repo: 'widgets', comment_id: user.id, content: 'eyes' });
    expect(again.status).toBe(200); // same reaction twice: GitHub answers 200 with the existing one
    const { data: reactions } = await octokit.rest.reactions.listForIssueComment({ owner: 'acme', repo: 'widgets', comment_id: user.id });
    expect(reactions).toHaveLength(1);
    await octokit.rest.issues.deleteComment({ owner: 'acme', repo: 'widgets', comment_id: c.id });
    expect(fake.repo(REPO).issueComments.map((x) => x.id)).toEqual([user.id]);
  });

  it('[violation] comment body over 65,536 chars → 422 "body is too long"', async () => {
    const err = await octokit.rest.issues.createComment({ owner: 'acme', repo: 'widgets', issue_number: 7, body: 'x'.repeat(65_537) }).catch((e: { status: number; response: { data: unknown } }) => e);
    expect(err).toMatchObject({ status: 422, response: { data: { errors: [{ message: expect.stringContaining('body is too long') }] } } });
    expect(fake.violations[0]?.kind).toBe('rule');
  });

  it('reviews: comments on diff lines are stored with position and diff_hunk', async () => {
    const { data: review } = await octokit.rest.pulls.createReview({
      owner: 'acme', repo: 'widgets', pull_number: 7, commit_id: HEAD, event: 'COMMENT', body: 'Redline',
      comments: [
        { path: 'src/x.ts', line: 2, side: 'RIGHT', body: 'here' },
        { path: 'src/x.ts', start_line: 21, line: 23, side: 'RIGHT', body: 'range' },
      ],
    });
    expect(review).toMatchObject({ state: 'COMMENTED', commit_id: HEAD, user: { login: 'redline[bot]' } });
    const comments = await octokit.paginate(octokit.rest.pulls.listReviewComments, { owner: 'acme', repo: 'widgets', pull_number: 7 });
    expect(comments).toHaveLength(2);
    expect(comments[0]).toMatchObject({ path: 'src/x.ts', line: 2, side: 'RIGHT', position: 3, pull_request_review_id: review.id, subject_type: 'line' });
    expect(comments[0]!.diff_hunk).toBe('@@ -1,4 +1,5 @@\n import { a } from "./a";\n-const x = 1;\n+const x: number = "1";');
    expect(comments[1]).toMatchObject({ start_line: 21, line: 23 });
    const { data: edited } = await octokit.rest.pulls.updateReviewComment({ owner: 'acme', repo: 'widgets', comment_id: comments[0]!.id, body: 'fixed' });
    expect(edited.body).toBe('fixed');
    const { data: rs } = await octokit.rest.reactions.listForPullRequestReviewComment({ owner: 'acme', repo: 'widgets', comment_id: comments[0]!.id });
    expect(rs).toEqual([]);
  });

  it('[violation] a review with one out-of-diff line → 422 "Line could not be resolved", nothing stored', async () => {
    const before = { reviews: fake.repo(REPO).reviews.length, comments: fake.repo(REPO).reviewComments.length };
    const err = await octokit.rest.pulls
      .createReview({
        owner: 'acme', repo: 'widgets', pull_number: 7, event: 'COMMENT', body: 'x',
        comments: [
          { path: 'src/x.ts', line: 2, side: 'RIGHT', body: 'in the diff' },
          { path: 'src/x.ts', line: 10, side: 'RIGHT', body: 'not in the diff' },
        ],
      })
      .catch((e: { status: number; response: { data: unknown } }) => e);
    expect(err).toMatchObject({ status: 422, response: { data: { errors: ['Line could not be resolved'] } } });
    expect({ reviews: fake.repo(REPO).reviews.length, comments: fake.repo(REPO).reviewComments.length }).toEqual(before);
    expect(fake.violations).toHaveLength(1);
  });

  it('[violation] single review comment: out-of-diff line and start_line rules', async () => {
    const post = (extra: object) =>
      octokit
        .request('POST /repos/{owner}/{repo}/pulls/{pull_number}/comments', { owner: 'acme', repo: 'widgets', pull_number: 7, commit_id: HEAD, path: 'src/x.ts', body: 'b', ...extra } as never)
        .catch((e: { status: number; response: { data: { errors: Array<{ message: string }> } } }) => e);
    expect(await post({ line: 2, side: 'LEFT' })).toMatchObject({ status: 201 }); // the removed "-const x = 1;"
    const bad = await post({ line: 10, side: 'RIGHT' });
    expect(bad).toMatchObject({ status: 422, response: { data: { errors: [{ message: 'pull_request_review_thread.line must be part of the diff' }] } } });
    const badRange = await post({ start_line: 2, line: 21, side: 'RIGHT' });
    expect(badRange).toMatchObject({ status: 422 });
    expect(fake.violations).toHaveLength(2);
  });

  it('file-level review comment (subject_type: file) and a reply', async () => {
    const { data: c } = await octokit.rest.pulls.createReviewComment({ owner: 'acme', repo: 'widgets', pull_number: 7, commit_id: HEAD, path: 'src/x.ts', body: 'file', subject_type: 'file' });
    expect(c).toMatchObject({ subject_type: 'file', line: null, path: 'src/x.ts' });
    const { data: r } = await octokit.rest.pulls.createReplyForReviewComment({ owner: 'acme', repo: 'widgets', pull_number: 7, comment_id: c.id, body: 'thanks' });
    expect(r.in_reply_to_id).toBe(c.id);
  });

  it('check runs: create, update appends annotations, list annotations', async () => {
    const { data: run } = await octokit.rest.checks.create({ owner: 'acme', repo: 'widgets', name: 'Redline', head_sha: HEAD, status: 'in_progress' });
    expect(run).toMatchObject({ status: 'in_progress', app: { slug: 'redline' }, pull_requests: [{ number: 7 }] });
    const ann = (n: number) => Array.from({ length: n }, (_, i) => ({ path: 'src/x.ts', start_line: i + 1, end_line: i + 1, annotation_level: 'failure' as const, message: `m${i}` }));
    await octokit.rest.checks.update({ owner: 'acme', repo: 'widgets', check_run_id: run.id, output: { title: 't', summary: 's', annotations: ann(50) } });
    const { data: done } = await octokit.rest.checks.update({ owner: 'acme', repo: 'widgets', check_run_id: run.id, conclusion: 'neutral', output: { title: 't', summary: 's', annotations: ann(3) } });
    expect(done).toMatchObject({ status: 'completed', conclusion: 'neutral', output: { annotations_count: 53 } });
    const all = await octokit.paginate(octokit.rest.checks.listAnnotations, { owner: 'acme', repo: 'widgets', check_run_id: run.id });
    expect(all).toHaveLength(53);
    const { data: forRef } = await octokit.rest.checks.listForRef({ owner: 'acme', repo: 'widgets', ref: HEAD, check_name: 'Redline' });
    expect(forRef.total_count).toBe(1);
  });

  it('[violation] check runs: 51 annotations or a summary over 65,535 → 422', async () => {
    const { data: run } = await octokit.rest.checks.create({ owner: 'acme', repo: 'widgets', name: 'Redline', head_sha: HEAD });
    const ann = Array.from({ length: 51 }, () => ({ path: 'a', start_line: 1, end_line: 1, annotation_level: 'notice' as const, message: 'm' }));
    await expect(octokit.rest.checks.update({ owner: 'acme', repo: 'widgets', check_run_id: run.id, output: { title: 't', summary: 's', annotations: ann } })).rejects.toMatchObject({ status: 422 });
    await expect(octokit.rest.checks.update({ owner: 'acme', repo: 'widgets', check_run_id: run.id, output: { title: 't', summary: 'x'.repeat(65_536) } })).rejects.toMatchObject({ status: 422 });
    expect(fake.repo(REPO).checkRuns.find((r) => r.id === run.id)?.annotations).toEqual([]);
    expect(fake.violations).toHaveLength(2);
  });

  it('seeded check run of another CI with annotations', async () => {
    const seeded = fake.addCheckRun(REPO, { name: 'ci/jenkins', head_sha: HEAD, output: { title: 'Build failed', summary: 'tsc', text: null }, annotations: [{ path: 'src/x.ts', start_line: 2, end_line: 2, annotation_level: 'failure', message: "TS2322: Type 'string' is not assignable to type 'number'." }] });
    const { data } = await octokit.rest.checks.get({ owner: 'acme', repo: 'widgets', check_run_id: seeded.id });
    expect(data).toMatchObject({ conclusion: 'failure', app: { slug: 'github-actions' } });
    const { data: anns } = await octokit.rest.checks.listAnnotations({ owner: 'acme', repo: 'widgets', check_run_id: seeded.id });
    expect(anns[0]).toMatchObject({ path: 'src/x.ts', start_line: 2, annotation_level: 'failure' });
  });

  it('jobs: get, list for run', async () => {
    const job = fake.addJob(REPO, { id: 555, run_id: 99, name: 'typecheck', head_sha: HEAD, head_branch: 'feature', log: 'hello' });
    fake.addJob(REPO, { id: 556, run_id: 99, name: 'lint', head_sha: HEAD, conclusion: 'success' });
    const { data } = await octokit.rest.actions.getJobForWorkflowRun({ owner: 'acme', repo: 'widgets', job_id: job.id });
    expect(data).toMatchObject({ id: 555, run_id: 99, status: 'completed', conclusion: 'failure', steps: [{ number: 1 }, { number: 2, name: 'Run npm test', conclusion: 'failure' }] });
    const { data: list } = await octokit.rest.actions.listJobsForWorkflowRun({ owner: 'acme', repo: 'widgets', run_id: 99 });
    expect(list.total_count).toBe(2);
  });
});

describe('job logs', () => {
  const LOG = '2026-11-29T10:15:02.1234567Z ##[group]Run npx tsc\nsrc/x.ts(2,7): error TS2322\n';

  it('302 to a signed blob URL; Octokit follows it and does not forward Authorization (cross-origin)', async () => {
    fake.addJob(REPO, { id: 700, head_sha: HEAD, log: LOG });
    const res = await octokit.rest.actions.downloadJobLogsForWorkflowRun({ owner: 'acme', repo: 'widgets', job_id: 700 });
    expect(res.status).toBe(200);
    expect(res.data).toBe(LOG);
    const blobHit = fake.requests.filter((r) => r.host === 'blob' && r.path.startsWith('/_blob/job-logs/acme/widgets/700'));
    expect(blobHit).toHaveLength(1);
    expect(blobHit[0]!.headers.authorization).toBeUndefined();
  });

  it('fetching the redirect by hand (redirect: manual) works without the token', async () => {
    const res = await fetch(`${fake.url}/repos/acme/widgets/actions/jobs/700/logs`, { headers: { authorization: `token ${installationToken}` }, redirect: 'manual' });
    expect(res.status).toBe(302);
    const location = res.headers.get('location')!;
    expect(location.startsWith(fake.blobUrl)).toBe(true);
    expect(await (await fetch(location)).text()).toBe(LOG);
  });

  it('[violation] the log host rejects a request carrying Authorization', async () => {
    const res = await fetch(`${fake.url}/repos/acme/widgets/actions/jobs/700/logs`, { headers: { authorization: `token ${installationToken}` }, redirect: 'manual' });
    const blob = await fetch(res.headers.get('location')!, { headers: { authorization: `token ${installationToken}` } });
    expect(blob.status).toBe(400);
    expect(fake.violations[0]?.kind).toBe('blob-auth');
  });

  it('[violation] same-origin blob host: Octokit (undici fetch) forwards Authorization and is rejected', async () => {
    const gh = await startFakeGitHub({ blobOrigin: 'same' });
    try {
      gh.addRepo('o/r');
      gh.addJob('o/r', { id: 1, head_sha: HEAD, log: LOG });
      const o = new Octokit({ baseUrl: gh.url, auth: gh.createToken('someone'), log: quiet });
      await expect(o.rest.actions.downloadJobLogsForWorkflowRun({ owner: 'o', repo: 'r', job_id: 1 })).rejects.toMatchObject({ status: 400 });
      expect(gh.violations.map((v) => v.kind)).toEqual(['blob-auth']);
    } finally {
      await gh.close();
    }
  });

  it('404 N times while running, then the log; 410 when gone; expired signed URL refused', async () => {
    fake.addJob(REPO, { id: 701, head_sha: HEAD, status: 'in_progress', conclusion: null, log: { text: LOG, notFoundTimes: 2 } });
    const get = () => octokit.rest.actions.downloadJobLogsForWorkflowRun({ owner: 'acme', repo: 'widgets', job_id: 701 }).then((r) => r.status, (e: { status: number }) => e.status);
    expect([await get(), await get(), await get()]).toEqual([404, 404, 200]);
    fake.addJob(REPO, { id: 702, head_sha: HEAD, log: { text: LOG, gone: true } });
    await expect(octokit.rest.actions.downloadJobLogsForWorkflowRun({ owner: 'acme', repo: 'widgets', job_id: 702 })).rejects.toMatchObject({ status: 410 });
    const gh = await startFakeGitHub({ blobTtlMs: -1 });
    try {
      gh.addRepo('o/r');
      gh.addJob('o/r', { id: 1, head_sha: HEAD, log: LOG });
      const res = await fetch(`${gh.url}/repos/o/r/actions/jobs/1/logs`, { redirect: 'manual' });
      expect((await fetch(res.headers.get('location')!)).status).toBe(403);
    } finally {
      await gh.close();
    }
  });
});

describe('tarballs', () => {
  it('GitHub-style tarball: 302 to codeload, gzip extracts with tar', async () => {
    const prefix = `acme-widgets-${HEAD.slice(0, 7)}`;
    fake.repo(REPO).tarballs[HEAD] = makeTarball({ 'src/x.ts': 'export const x = 1;\n', 'README.md': '# w\n', 'src/alias.ts': { symlink: 'x.ts' }, evil: { symlink: '../../etc/passwd' } }, prefix, { sha: HEAD });
    const res = await octokit.rest.repos.downloadTarballArchive({ owner: 'acme', repo: 'widgets', ref: HEAD });
    expect(res.status).toBe(200);
    const dir = mkdtempSync(join(tmpdir(), 'fake-gh-tar-'));
    try {
      const file = join(dir, 'repo.tar.gz');
      writeFileSync(file, Buffer.from(res.data as ArrayBuffer));
      const entries: string[] = [];
      await extract({ file, cwd: dir, onReadEntry: (e) => void entries.push(e.path) });
      expect(entries).toContain(`${prefix}/src/x.ts`);
      expect(readFileSync(join(dir, prefix, 'src/x.ts'), 'utf8')).toBe('export const x = 1;\n');
      expect(readlinkSync(join(dir, prefix, 'src/alias.ts'))).toBe('x.ts');
      // The hostile link is in the archive; node-tar itself refuses to create it on extraction.
      expect(entries).toContain(`${prefix}/evil`);
      expect(() => readlinkSync(join(dir, prefix, 'evil'))).toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('webhooks', () => {
  it('examplePayload gives deep copies of real payloads', () => {
    const a = examplePayload('workflow_job', 'completed');
    a.repository.full_name = 'changed';
    expect(examplePayload('workflow_job', 'completed').repository.full_name).not.toBe('changed');
    expect(examplePayload('check_run', 'completed').check_run).toBeDefined();
    expect(examplePayload('issue_comment', 'created').comment.body).toEqual(expect.any(String));
    expect(() => examplePayload('workflow_job', 'nope')).toThrow(/have:/);
  });

  it('deliver signs the raw body; tamper breaks the signature', async () => {
    const got: Array<{ headers: Record<string, unknown>; body: string }> = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        got.push({ headers: req.headers, body });
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/github/webhooks`;
      const payload = examplePayload('workflow_job', 'completed');
      const r1 = await deliver(url, 'workflow_job', payload, 's3cret', { id: 'delivery-1' });
      await deliver(url, 'workflow_job', payload, 's3cret', { tamper: true });
      expect(r1).toMatchObject({ status: 200, id: 'delivery-1' });
      expect(got[0]!.headers).toMatchObject({ 'x-github-event': 'workflow_job', 'x-github-delivery': 'delivery-1', 'content-type': 'application/json' });
      expect(await verify('s3cret', got[0]!.body, String(got[0]!.headers['x-hub-signature-256']))).toBe(true);
      expect(await verify('s3cret', got[1]!.body, String(got[1]!.headers['x-hub-signature-256']))).toBe(false);
    } finally {
      server.close();
    }
  });
});

describe('seeded fault mix', () => {
  const MIX: FaultMix = { seed: 7, rates: { serverError: 0.1, serverErrorAfterEffect: 0.1, secondaryRateLimit: 0.1, secondaryNoRetryAfter: 0.1, primaryRateLimit: 0.1, networkReset: 0.1, networkResetAfterEffect: 0.1, logLinkExpired: 0.3 } };

  /** 40 reads, 20 comment POSTs and 20 log downloads by hand (no client retries): what each got. */
  async function exercise(mix: FaultMix) {
    const gh = await startFakeGitHub();
    try {
      gh.addRepo(REPO);
      gh.addPull(REPO, { number: 1, head: { ref: 'f', sha: HEAD } });
      gh.addJob(REPO, { id: 5, head_sha: HEAD, log: 'log' });
      const auth = { authorization: `token ${gh.createToken('someone')}` };
      gh.setFaultMix(mix);
      const get = (path: string) => fetch(`${gh.url}${path}`, { headers: auth, redirect: 'manual' }).then((r) => r.status, () => 0);
      for (let i = 0; i < 40; i++) await get(`/repos/${REPO}`);
      for (let i = 0; i < 20; i++) {
        await fetch(`${gh.url}/repos/${REPO}/issues/1/comments`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ body: `c${i}` }) }).then((r) => r.status, () => 0);
      }
      let link: string | null = null; // the link request draws faults too: asked until it is a redirect
      while (!link) link = await fetch(`${gh.url}/repos/${REPO}/actions/jobs/5/logs`, { headers: auth, redirect: 'manual' }).then((r) => r.headers.get('location'), () => null);
      for (let i = 0; i < 20; i++) await fetch(link).then((r) => r.status, () => 0);
      return { statuses: gh.requests.map((r) => `${r.method} ${r.host} ${r.status}`), counts: gh.faultCounts, comments: gh.repo(REPO).issueComments.length, violations: gh.violations };
    } finally {
      await gh.close();
    }
  }

  it('the same seed injects the same faults on the same requests; each kind where it applies; counted', async () => {
    const a = await exercise(MIX);
    const b = await exercise(MIX);
    const c = await exercise({ ...MIX, seed: 8 });
    expect(a.statuses).toEqual(b.statuses);
    expect(c.statuses).not.toEqual(a.statuses);
    expect(a.violations).toEqual([]);
    for (const kind of FAULT_KINDS) expect(a.counts[kind], kind).toBeGreaterThan(0);
    // A reset is recorded as status 0; an after-effect fault still stored the comment.
    const posts = a.statuses.filter((s) => s.startsWith('POST'));
    const stored = posts.filter((s) => s.endsWith(' 201')).length + a.counts.serverErrorAfterEffect + a.counts.networkResetAfterEffect;
    expect(a.comments).toBe(stored);
    expect(a.statuses.some((s) => s === 'GET blob 403')).toBe(true);
  });

  it('primary limits look like GitHub\'s: 403, remaining 0, reset a second or two ahead; the App\'s token endpoint is never faulted', async () => {
    const gh = await startFakeGitHub();
    try {
      gh.addRepo(REPO);
      gh.setFaultMix({ seed: 1, rates: { primaryRateLimit: 1 } });
      const auth = { authorization: `token ${gh.createToken('someone')}` };
      const res = await fetch(`${gh.url}/repos/${REPO}`, { headers: auth });
      expect(res.status).toBe(403);
      expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
      const ahead = Number(res.headers.get('x-ratelimit-reset')) - Date.now() / 1000;
      expect(ahead).toBeGreaterThan(0);
      expect(ahead).toBeLessThanOrEqual(2);
      expect(res.headers.get('retry-after')).toBeNull();
      const inst = Object.values(gh.state.installations)[0]!;
      gh.setFaultMix({ seed: 1, rates: { serverError: 1 } });
      const tok = await fetch(`${gh.url}/app/installations/${inst.id}/access_tokens`, { method: 'POST', headers: { authorization: `Bearer ${unsignedJwt()}`, 'content-type': 'application/json' }, body: '{}' });
      expect(tok.status).toBe(201);
      expect(gh.faultCounts.serverError).toBe(0);
    } finally {
      await gh.close();
    }
  });

  it('mulberry32 is deterministic and spread over [0, 1)', () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const xs = Array.from({ length: 1000 }, () => a());
    expect(Array.from({ length: 1000 }, () => b())).toEqual(xs);
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...xs)).toBeLessThan(1);
    expect(xs.filter((x) => x < 0.5).length).toBeGreaterThan(400);
  });
});

describe('compare and the primary rate limit', () => {
  const GREEN = '9'.repeat(40);

  it('compare: files on the first page only (at most 300), commits paged, a file too large has no patch; validated', async () => {
    const gh = await startFakeGitHub();
    try {
      gh.addRepo(REPO);
      const commits = Array.from({ length: 3 }, (_, i) => ({ sha: String(i + 1).repeat(40), message: `change ${i + 1}` }));
      const files = [{ filename: 'src/x.ts', patch: PATCH }, { filename: 'big.json', additions: 90_000, deletions: 2 }, ...Array.from({ length: 310 }, (_, i) => ({ filename: `gen/f${i}.ts`, status: 'added' as const, patch: '@@ -0,0 +1 @@\n+x' }))];
      gh.addCompare(REPO, GREEN, HEAD, { commits, files });
      const ok = new Octokit({ baseUrl: gh.url, auth: gh.createToken('someone'), log: quiet });
      const first = await ok.request('GET /repos/{owner}/{repo}/compare/{basehead}', { owner: 'acme', repo: 'widgets', basehead: `${GREEN}...${HEAD}`, per_page: 1 });
      expect(first.data.total_commits).toBe(3);
      expect(first.data.commits.map((c) => c.sha)).toEqual([commits[0]!.sha]);
      expect(first.data.files).toHaveLength(300);
      expect(first.data.files![0]).toMatchObject({ filename: 'src/x.ts', additions: 3, deletions: 1, patch: PATCH });
      expect(first.data.files![1]).toMatchObject({ filename: 'big.json', changes: 90_002 });
      expect(first.data.files![1]!.patch).toBeUndefined();
      expect(first.headers.link).toMatch(/page=2>; rel="next"/);
      const second = await ok.request('GET /repos/{owner}/{repo}/compare/{basehead}', { owner: 'acme', repo: 'widgets', basehead: `${GREEN}...${HEAD}`, per_page: 1, page: 2 });
      expect(second.data.files).toEqual([]);
      expect(second.data.commits[0]!.parents[0]!.sha).toBe(commits[0]!.sha);
      // Unpaged: every commit (up to 250), the files too.
      const all = await ok.request('GET /repos/{owner}/{repo}/compare/{basehead}', { owner: 'acme', repo: 'widgets', basehead: `${GREEN}...${HEAD}` });
      expect(all.data.commits).toHaveLength(3);
      await expect(ok.request('GET /repos/{owner}/{repo}/compare/{basehead}', { owner: 'acme', repo: 'widgets', basehead: `${HEAD}...${GREEN}` })).rejects.toMatchObject({ status: 404 });
      // A page size GitHub's description refuses is a violation.
      await fetch(`${gh.url}/repos/${REPO}/compare/${GREEN}...${HEAD}?per_page=many`, { headers: { authorization: `token ${gh.createToken('x')}` } });
      expect(gh.violations.map((v) => v.kind)).toEqual(['schema']);
    } finally {
      await gh.close();
    }
  });

  it('each request counts against its credential\'s hour: real x-ratelimit headers, 403 once spent', async () => {
    const gh = await startFakeGitHub();
    try {
      gh.addRepo(REPO);
      const alice = { authorization: `token ${gh.createToken('alice')}` };
      const bob = { authorization: `token ${gh.createToken('bob')}` };
      const a1 = await fetch(`${gh.url}/repos/${REPO}`, { headers: alice });
      const a2 = await fetch(`${gh.url}/repos/${REPO}`, { headers: alice });
      const b1 = await fetch(`${gh.url}/repos/${REPO}`, { headers: bob });
      expect([a1, a2, b1].map((r) => r.headers.get('x-ratelimit-remaining'))).toEqual(['4999', '4998', '4999']);
      expect(a2.headers.get('x-ratelimit-limit')).toBe('5000');
      expect(a2.headers.get('x-ratelimit-used')).toBe('2');
      const reset = Number(a2.headers.get('x-ratelimit-reset')) - Date.now() / 1000;
      expect(reset).toBeGreaterThan(3500);
      expect(reset).toBeLessThanOrEqual(3600);
      gh.setRateLimit(2, { limit: 1000, resetInS: 600 });
      const low = await fetch(`${gh.url}/repos/${REPO}`, { headers: alice });
      expect(low.status).toBe(200);
      expect([low.headers.get('x-ratelimit-limit'), low.headers.get('x-ratelimit-remaining')]).toEqual(['1000', '1']);
      await fetch(`${gh.url}/repos/${REPO}`, { headers: alice });
      const spent = await fetch(`${gh.url}/repos/${REPO}`, { headers: alice });
      expect(spent.status).toBe(403);
      expect(spent.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(((await spent.json()) as { message: string }).message).toMatch(/^API rate limit exceeded for user ID \d+\./);
      expect(Number(spent.headers.get('x-ratelimit-reset')) - Date.now() / 1000).toBeLessThanOrEqual(600);
    } finally {
      await gh.close();
    }
  });
});
