// The local GitHub of `npm run bench:load`, in its own process (so its CPU and memory are not the App's).
// scripts/bench-load.mjs bundles this file with esbuild (the fake is TypeScript: test/helpers/fake-github)
// into bench-out/ and forks it; they talk over IPC: { id, cmd, args } → { id, result } | { id, error }.
import { examplePayload, generateAppKey, startFakeGitHub } from '../test/helpers/fake-github/index.js';
import { RECEIPT_EDIT, REPO, fixtureTarball, headFiles, patchFiles } from '../test/app/fixture-repo.js';

let fake;

const commands = {
  /** The fake, one repository, `prs` PRs each on its own head commit (own tarball), and the failing jobs. */
  async setup({ fixture, prs, jobs, logs }) {
    const privateKey = generateAppKey();
    fake = await startFakeGitHub({ privateKey });
    // The load bench measures throughput, not one installation's hourly quota (5,000 on GitHub; a thousand
    // jobs spend more): the fake's rate limit is lifted out of its way.
    fake.setRateLimit(10_000_000, { limit: 10_000_000 });
    fake.addRepo(REPO);
    const files = headFiles(fixture);
    const patch = patchFiles(fixture);
    for (const pr of prs) {
      fake.repo(REPO).tarballs[pr.sha] = fixtureTarball(pr.sha, files);
      // Two in three PRs touch receipt.ts line 15 (review comments on lines); the rest do not.
      fake.addPull(REPO, { number: pr.number, head: { ref: `topic-${pr.number}`, sha: pr.sha }, files: pr.touchReceipt ? [...patch, RECEIPT_EDIT] : patch });
    }
    for (const j of jobs) fake.addJob(REPO, { id: j.id, name: j.name, workflow_name: j.workflow, head_sha: j.sha, log: logs[j.variant] });
    // The webhook payload the load generator fills in per job: a real example pointed at this repo.
    const p = examplePayload('workflow_job', 'completed');
    const installation = Object.values(fake.state.installations).find((i) => i.repos.includes(REPO));
    const [owner, name] = REPO.split('/');
    p.repository = { ...p.repository, id: fake.repo(REPO).id, name, full_name: REPO, html_url: `https://github.com/${REPO}`, owner: { ...p.repository.owner, login: owner } };
    p.installation = { id: installation.id, node_id: 'MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uMQ==' };
    p.sender = { ...p.sender, login: 'octocat', type: 'User' };
    p.workflow_job = { ...p.workflow_job, status: 'completed', conclusion: 'failure' };
    return { url: fake.url, apiV3Url: fake.apiV3Url, host: fake.host, appId: fake.state.app.id, privateKey, repo: REPO, payload: p };
  },
  faults({ mix }) {
    fake.setFaultMix(mix ?? undefined);
    return true;
  },
  /** What GitHub holds at the end: Redline's comments (fingerprinted) and check runs, faults, rule violations. */
  report() {
    const repo = fake.repo(REPO);
    const botComments = (list, number) => list.filter((c) => c.user === 'redline[bot]').map((c) => ({ pr: c[number], body: c.body, id: c.id }));
    const kinds = {};
    for (const v of fake.violations) kinds[v.kind] = (kinds[v.kind] ?? 0) + 1;
    const statuses = {};
    for (const r of fake.requests) statuses[r.status ?? 'none'] = (statuses[r.status ?? 'none'] ?? 0) + 1;
    return {
      reviewComments: botComments(repo.reviewComments, 'pull_number'),
      issueComments: botComments(repo.issueComments, 'issue_number'),
      checkRuns: repo.checkRuns.filter((c) => c.name === 'Redline').map((c) => ({ sha: c.head_sha, externalId: c.external_id, title: c.output.title, status: c.status })),
      faults: fake.faultCounts,
      requests: fake.requests.length,
      tarballDownloads: fake.requests.filter((r) => r.host === 'blob' && r.path.startsWith('/_codeload/') && r.status === 200).length,
      logDownloads: fake.requests.filter((r) => r.host === 'blob' && r.path.startsWith('/_blob/job-logs/') && r.status === 200).length,
      requestStatuses: statuses,
      violations: fake.violations.length,
      violationKinds: kinds,
      firstViolations: fake.violations.slice(0, 5).map((v) => `${v.kind} ${v.method} ${v.path}: ${v.message.slice(0, 200)}`),
    };
  },
  async close() {
    await fake?.close();
    setTimeout(() => process.exit(0), 50); // a normal exit (a --cpu-prof profile is written then)
    return true;
  },
};

process.on('message', async ({ id, cmd, args }) => {
  try {
    process.send({ id, result: await commands[cmd](args ?? {}) });
  } catch (e) {
    process.send({ id, error: String(e?.stack ?? e) });
  }
});
process.send({ ready: true });
