import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseFingerprint } from '../../src/report/fingerprint.js';
import { deliver, examplePayload } from '../helpers/fake-github/index.js';
import { RECEIPT_EDIT, FIXTURE, HEAD_SHA, REPO, SECRET, patchFiles, startHarness, type Harness } from './e2e-helpers.js';

const LOG = readFileSync(join(FIXTURE, 'log.txt'), 'utf8');


let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

/** PR 7 at HEAD_SHA with a failed `CI / typecheck` job (the fixture's tsc log); people with their roles. */
function seed(opts: { log?: string } = {}) {
  h.fake.addPull(REPO, { number: 7, head: { ref: 'currency', sha: HEAD_SHA }, files: [...patchFiles(), RECEIPT_EDIT] });
  h.fake.addJob(REPO, { id: 501, run_id: 77, name: 'typecheck', workflow_name: 'CI', head_sha: HEAD_SHA, log: opts.log ?? LOG });
  const repo = h.fake.repo(REPO);
  repo.permissions.maintainer = 'write';
  repo.permissions.triager = 'triage';
}

/** A real `issue_comment.created` payload for a new comment on PR 7 (seeded in the fake, so it can get reactions). */
function commentPayload(body: string, user: { login: string; type?: 'User' | 'Bot' } = { login: 'maintainer' }) {
  const c = h.fake.addIssueComment(REPO, 7, { user: user.login, body });
  const p = examplePayload('issue_comment', 'created');
  const [owner, name] = REPO.split('/') as [string, string];
  const repo = h.fake.repo(REPO);
  const installation = Object.values(h.fake.state.installations).find((i) => i.repos.includes(REPO))!;
  p.repository = { ...p.repository, id: repo.id, name, full_name: REPO, html_url: `https://github.com/${REPO}`, owner: { ...p.repository.owner, login: owner } };
  p.installation = { id: installation.id, node_id: 'MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uMQ==' };
  p.issue = {
    ...p.issue,
    number: 7,
    pull_request: { url: `https://api.github.com/repos/${REPO}/pulls/7`, html_url: `https://github.com/${REPO}/pull/7`, diff_url: `https://github.com/${REPO}/pull/7.diff`, patch_url: `https://github.com/${REPO}/pull/7.patch`, merged_at: null },
  };
  const u = { ...p.comment.user, login: user.login, type: user.type ?? 'User' };
  p.comment = { ...p.comment, id: c.id, body, user: u, author_association: 'CONTRIBUTOR' };
  p.sender = { ...p.sender, login: user.login, type: user.type ?? 'User' };
  return { payload: p, comment: c };
}

async function send(payload: unknown) {
  const t0 = performance.now();
  const res = await deliver(h.webhookUrl, 'issue_comment', payload, SECRET);
  const answeredMs = performance.now() - t0;
  await h.queue.idle();
  return { ...res, answeredMs };
}

/** Comments Redline posted (its replies and its diagnosis comments), not the commenters'. */
const ours = () => h.fake.repo(REPO).issueComments.filter((c) => c.user === 'redline[bot]');

describe('/redline in a PR comment (local GitHub, Probot started for real)', () => {
  it('from a user with write access: a reaction at once, then the diagnosis as one review comment on the line', async () => {
    seed();
    const { payload, comment } = commentPayload('The typecheck failed again?\n\n/redline');
    const res = await send(payload);
    expect(res.status).toBe(200);
    // GitHub gives a delivery 10 s: the answer must not wait for the diagnosis (speed itself is the bench's).
    expect(res.answeredMs).toBeLessThan(10_000);
    expect(h.fake.violations).toEqual([]);
    expect(comment.reactions).toMatchObject([{ user: 'redline[bot]', content: 'eyes' }]);
    // Write access was asked of the API, not read from author_association.
    expect(h.fake.requestsTo('GET', `/repos/${REPO}/collaborators/maintainer/permission`)).toHaveLength(1);
    // The PR's head commit's failed jobs were listed, and the one failure diagnosed.
    expect(h.fake.requestsTo('GET', `/repos/${REPO}/actions/runs`)[0]!.query).toMatchObject({ head_sha: HEAD_SHA });
    const repo = h.fake.repo(REPO);
    expect(repo.reviewComments).toHaveLength(1);
    expect(repo.reviewComments[0]).toMatchObject({ path: 'src/receipt.ts', line: 15, user: 'redline[bot]' });
    expect(parseFingerprint(repo.reviewComments[0]!.body)).toBeDefined();
    expect(ours()).toHaveLength(0);
  });

  it('/redline retry twice re-diagnoses twice and still leaves one comment', async () => {
    seed();
    await send(commentPayload('/redline retry').payload);
    await send(commentPayload('/redline retry').payload);
    expect(h.fake.violations).toEqual([]);
    expect(h.fake.repo(REPO).reviewComments).toHaveLength(1);
    expect(h.fake.requestsTo('GET', /\/actions\/jobs\/501\/logs$/).length).toBe(2);
  });

  it('from a read-only user: one polite reply, nothing diagnosed', async () => {
    seed();
    const { payload, comment } = commentPayload('/redline retry', { login: 'triager' });
    await send(payload);
    expect(h.fake.violations).toEqual([]);
    const replies = ours();
    expect(replies).toHaveLength(1);
    expect(replies[0]!.body).toMatch(/write access/);
    expect(replies[0]!.body).not.toMatch(/@triager/);
    expect(comment.reactions).toEqual([]);
    expect(h.fake.requestsTo('GET', /\/logs$/)).toHaveLength(0);
    expect(h.fake.requestsTo('GET', `/repos/${REPO}/actions/runs`)).toHaveLength(0);
    expect(h.fake.repo(REPO).reviewComments).toHaveLength(0);
  });

  it('a user the API does not know as a collaborator (public repo: read) is refused the same way', async () => {
    seed();
    await send(commentPayload('/redline', { login: 'drive-by' }).payload);
    expect(ours()).toHaveLength(1);
    expect(h.fake.requestsTo('GET', /\/logs$/)).toHaveLength(0);
  });

  it('ignores /redline inside a code fence, indented code or a quote, and from bots', async () => {
    seed();
    await send(commentPayload('To rerun, type:\n```\n/redline retry\n```').payload);
    await send(commentPayload('To rerun, type:\n\n    /redline retry').payload);
    await send(commentPayload('> /redline retry\n\nI would not do that.').payload);
    await send(commentPayload('/redline', { login: 'renovate[bot]', type: 'Bot' }).payload);
    await send(commentPayload('/redline', { login: 'ci-helper[bot]' }).payload);
    expect(h.fake.requests).toHaveLength(0);
  });

  it('ignores Redline\u2019s own comments (its marker), even when they quote the command', async () => {
    seed();
    await send(commentPayload('<!-- redline:reply -->\n/redline retry').payload);
    expect(h.fake.requestsTo('POST', /reactions$/)).toHaveLength(0);
    expect(h.fake.requestsTo('GET', /permission$/)).toHaveLength(0);
  });

  it('/redline help replies with the usage', async () => {
    seed();
    const { payload, comment } = commentPayload('/redline help');
    await send(payload);
    expect(h.fake.violations).toEqual([]);
    expect(comment.reactions).toMatchObject([{ content: '+1' }]);
    const replies = ours();
    expect(replies).toHaveLength(1);
    expect(replies[0]!.body).toContain('/redline retry');
    expect(replies[0]!.body).toContain('/redline explain');
    expect(h.fake.requestsTo('GET', /\/logs$/)).toHaveLength(0);
  });

  it('/redline explain posts a comment with the evidence even where nothing is pinned', async () => {
    seed({ log: '2026-11-29T10:15:00.0000000Z ##[group]Run ./deploy.sh\n2026-11-29T10:15:01.0000000Z Error: deployment verification returned an unexpected status\n2026-11-29T10:15:01.5000000Z ##[error]Process completed with exit code 1.\n' });
    await send(commentPayload('/redline explain').payload);
    expect(h.fake.violations).toEqual([]);
    const posted = ours();
    expect(posted).toHaveLength(1);
    expect(parseFingerprint(posted[0]!.body)).toBeDefined();
    expect(posted[0]!.body).toContain('deployment verification returned an unexpected status');
    expect(posted[0]!.body).toMatch(/You asked for an explanation/);
    expect(h.fake.repo(REPO).reviewComments).toHaveLength(0);
  });

  it('/redline retry also re-diagnoses another CI\u2019s failed check run (from its annotations)', async () => {
    h.fake.addPull(REPO, { number: 7, head: { ref: 'currency', sha: HEAD_SHA }, files: [...patchFiles(), RECEIPT_EDIT] });
    h.fake.repo(REPO).permissions.maintainer = 'admin';
    h.fake.addCheckRun(REPO, { name: 'Redline', head_sha: HEAD_SHA, app: 'redline', conclusion: 'failure' });
    h.fake.addCheckRun(REPO, { name: 'lint', head_sha: HEAD_SHA, app: 'github-actions', conclusion: 'failure' });
    h.fake.addCheckRun(REPO, {
      name: 'typecheck', head_sha: HEAD_SHA, app: 'buildkite', conclusion: 'failure',
      annotations: [{ path: 'src/receipt.ts', start_line: 15, end_line: 15, annotation_level: 'failure', title: 'TS2554', message: 'Expected 2 arguments, but got 1.' }],
    });
    await send(commentPayload('/redline retry').payload);
    expect(h.fake.violations).toEqual([]);
    expect(h.fake.requestsTo('GET', /\/annotations$/)).toHaveLength(1);
    expect(h.fake.repo(REPO).reviewComments).toMatchObject([{ path: 'src/receipt.ts', line: 15 }]);
  });

  it('says so when the head commit has no failed checks', async () => {
    h.fake.addPull(REPO, { number: 7, head: { ref: 'currency', sha: HEAD_SHA }, files: patchFiles() });
    h.fake.repo(REPO).permissions.maintainer = 'maintain';
    await send(commentPayload('/redline').payload);
    expect(h.fake.violations).toEqual([]);
    expect(ours().map((c) => c.body)).toEqual([expect.stringMatching(/No failed checks/)]);
  });
});
