import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseFingerprint } from '../../src/report/fingerprint.js';
import { deliver, examplePayload, type FakeCheckRun } from '../helpers/fake-github/index.js';
import { RECEIPT_EDIT, HEAD_SHA, REPO, SECRET, patchFiles, startHarness, type Harness } from './e2e-helpers.js';


let h: Harness;
beforeEach(async () => {
  h = await startHarness();
  h.fake.addPull(REPO, { number: 7, head: { ref: 'currency', sha: HEAD_SHA }, files: [...patchFiles(), RECEIPT_EDIT] });
});
afterEach(async () => {
  await h.close();
});

/** Another CI's failed typecheck, reported as a check run with a problem-matcher annotation. */
function otherCiRun(over: Partial<FakeCheckRun> = {}): FakeCheckRun {
  return h.fake.addCheckRun(REPO, {
    name: 'typecheck',
    head_sha: HEAD_SHA,
    app: 'circleci-checks',
    details_url: 'https://app.circleci.com/pipelines/github/octo-org/invoicer/12/workflows/1/jobs/3',
    output: { title: 'tsc: 2 errors', summary: 'The TypeScript compiler reported 2 errors.', text: null },
    annotations: [
      { path: 'src/receipt.ts', start_line: 15, end_line: 15, start_column: 62, annotation_level: 'failure', title: 'TS2554', message: 'Expected 2 arguments, but got 1.' },
      { path: 'src/receipt.ts', start_line: 17, end_line: 17, start_column: 45, annotation_level: 'failure', title: 'TS2554', message: 'Expected 2 arguments, but got 1.' },
    ],
    ...over,
  });
}

/** A real `check_run.completed` payload for `run`, pointed at the fixture repo. */
function checkRunPayload(run: FakeCheckRun, appName = 'CircleCI Checks') {
  const p = examplePayload('check_run', 'completed');
  const [owner, name] = REPO.split('/') as [string, string];
  const repo = h.fake.repo(REPO);
  const installation = Object.values(h.fake.state.installations).find((i) => i.repos.includes(REPO))!;
  p.repository = { ...p.repository, id: repo.id, name, full_name: REPO, html_url: `https://github.com/${REPO}`, owner: { ...p.repository.owner, login: owner } };
  p.installation = { id: installation.id, node_id: 'MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uMQ==' };
  p.sender = { ...p.sender, login: `${run.app}[bot]`, type: 'Bot' };
  p.check_run = {
    ...p.check_run,
    id: run.id,
    name: run.name,
    head_sha: run.head_sha,
    status: 'completed',
    conclusion: run.conclusion,
    details_url: run.details_url,
    html_url: `https://github.com/${REPO}/runs/${run.id}`,
    output: { ...run.output, annotations_count: run.annotations.length, annotations_url: `https://api.github.com/repos/${REPO}/check-runs/${run.id}/annotations` },
    app: { ...p.check_run.app, slug: run.app, name: appName },
    // Same-repo PR as the payload carries it.
    pull_requests: [{ url: `https://api.github.com/repos/${REPO}/pulls/7`, id: 1, number: 7, head: { ref: 'currency', sha: HEAD_SHA, repo: { id: repo.id, url: `https://api.github.com/repos/${REPO}`, name } }, base: { ref: 'main', sha: 'b'.repeat(40), repo: { id: repo.id, url: `https://api.github.com/repos/${REPO}`, name } } }],
  };
  return p;
}

async function send(payload: unknown) {
  const res = await deliver(h.webhookUrl, 'check_run', payload, SECRET);
  await h.queue.idle();
  return res;
}

describe('check_run.completed from another CI (local GitHub, Probot started for real)', () => {
  it('a failed run with annotations → one review comment at the annotated line, from the annotations', async () => {
    const run = otherCiRun();
    const res = await send(checkRunPayload(run));
    expect(res.status).toBe(200);
    expect(h.fake.violations).toEqual([]);
    expect(h.fake.requestsTo('GET', `/repos/${REPO}/check-runs/${run.id}/annotations`)).toHaveLength(1);
    const repo = h.fake.repo(REPO);
    expect(repo.reviewComments).toHaveLength(1);
    expect(repo.reviewComments[0]).toMatchObject({ path: 'src/receipt.ts', line: 15, side: 'RIGHT', user: 'redline[bot]' });
    expect(repo.reviewComments[0]!.body).toContain('Expected 2 arguments, but got 1.');
    expect(repo.reviewComments[0]!.body).toContain('app.circleci.com');
    expect(parseFingerprint(repo.reviewComments[0]!.body)).toBeDefined();
    expect(repo.issueComments).toHaveLength(0);
    // No job log exists for another CI: none was asked for.
    expect(h.fake.requestsTo('GET', /\/logs$/)).toHaveLength(0);
    expect(repo.checkRuns.filter((c) => c.name === 'Redline')).toMatchObject([{ conclusion: 'neutral' }]);
  });

  it('a redelivery and a re-run of the same failure leave the one comment', async () => {
    const run = otherCiRun();
    const payload = checkRunPayload(run);
    const first = await deliver(h.webhookUrl, 'check_run', payload, SECRET);
    await h.queue.idle();
    await deliver(h.webhookUrl, 'check_run', payload, SECRET, { id: first.id });
    await h.queue.idle();
    await send(checkRunPayload(otherCiRun()));
    expect(h.fake.violations).toEqual([]);
    expect(h.fake.repo(REPO).reviewComments).toHaveLength(1);
  });

  it('a timed-out run is diagnosed too', async () => {
    await send(checkRunPayload(otherCiRun({ conclusion: 'timed_out' })));
    expect(h.fake.repo(REPO).reviewComments).toHaveLength(1);
  });

  it('ignores Redline\u2019s own check run, GitHub Actions\u2019 check runs and runs that did not fail', async () => {
    await send(checkRunPayload(otherCiRun({ name: 'Redline', app: 'redline' }), 'Redline'));
    await send(checkRunPayload(otherCiRun({ app: 'github-actions' }), 'GitHub Actions'));
    await send(checkRunPayload(otherCiRun({ conclusion: 'success' })));
    await send(checkRunPayload(otherCiRun({ conclusion: 'cancelled' })));
    await send(checkRunPayload(otherCiRun({ conclusion: 'neutral' })));
    expect(h.fake.requests).toHaveLength(0);
    expect(h.fake.repo(REPO).reviewComments).toHaveLength(0);
  });

  it('ignores a run of this App under another name (found by its App, looked up once)', async () => {
    await send(checkRunPayload(otherCiRun({ name: 'Redline (old)', app: 'redline' }), 'Redline'));
    expect(h.fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /app']);
  });
});
