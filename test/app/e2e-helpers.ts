/** Setup for the App's end-to-end tests: the fake GitHub, Probot started for real, the fixture repo. */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createNodeMiddleware, Probot, ProbotOctokit, type Logger } from 'probot';
import { createRedlineApp, type AppOptions } from '../../src/doors/app.js';
import type { JobQueue } from '../../src/queue/queue.js';
import { examplePayload, generateAppKey, startFakeGitHub, type FakeGitHub } from '../helpers/fake-github/index.js';
import { HEAD_SHA, REPO, fixtureTarball } from './fixture-repo.js';

export { FIXTURE, HEAD_SHA, RECEIPT_EDIT, REPO, fixtureTarball, headFiles, patchFiles } from './fixture-repo.js';

export const SECRET = 'webhook-secret';

/** Probot's Octokit without the throttling plugin's write spacing (≥1 s per write): the fake has no limits. */
const UNTHROTTLED = ProbotOctokit.defaults((o: Record<string, any>) => ({ ...o, throttle: { ...o.throttle, enabled: false } })) // eslint-disable-line @typescript-eslint/no-explicit-any;

export interface Harness {
  fake: FakeGitHub;
  /** The App's key (the fake knows it): what a `redline worker` child needs as PRIVATE_KEY. */
  privateKey: string;
  queue: JobQueue;
  webhookUrl: string;
  /** The App's own HTTP server (`/redline/status`, `/redline/artifacts/…`). */
  appUrl: string;
  close(): Promise<void>;
}

/** Starts the fake GitHub with the fixture repo installed, and the App (Probot) on 127.0.0.1; `log` replaces Probot's (silent) logger. */
export async function startHarness(appOptions: AppOptions = {}, { log }: { log?: Logger } = {}): Promise<Harness> {
  const privateKey = generateAppKey();
  const fake = await startFakeGitHub({ privateKey });
  fake.addRepo(REPO);
  fake.repo(REPO).tarballs[HEAD_SHA] = fixtureTarball();
  const cacheDir = mkdtempSync(join(tmpdir(), 'redline-app-cache-'));
  const probot = new Probot({ appId: fake.state.app.id, privateKey, secret: SECRET, baseUrl: fake.url, logLevel: 'fatal', ...(log ? { log } : {}), Octokit: UNTHROTTLED });
  const app = createRedlineApp({ cacheDir, queueDb: join(cacheDir, 'queue.sqlite'), artifactDir: join(cacheDir, 'artifacts'), concurrency: 2, logFetch: { baseDelayMs: 5 }, retry: { backoffMs: 20 }, ...appOptions });
  const middleware = await createNodeMiddleware(app, { probot });
  const server: Server = createServer((req, res) => {
    void middleware(req, res, () => {
      res.writeHead(404);
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    fake,
    privateKey,
    queue: app.queue,
    webhookUrl: `http://127.0.0.1:${port}/api/github/webhooks`,
    appUrl: `http://127.0.0.1:${port}`,
    close: async () => {
      // A test that left a job backing off closes the queue itself; idle() would wait for it.
      await app.queue.idle();
      await app.queue.close();
      await new Promise<void>((r) => server.close(() => r()));
      await fake.close();
      rmSync(cacheDir, { recursive: true, force: true });
    },
  };
}

/** A real `workflow_job.completed` payload pointed at the fixture repo and this job. */
export function workflowJobPayload(fake: FakeGitHub, job: { id: number; name: string; workflow_name: string; conclusion?: string | null; run_id?: number; run_attempt?: number; head_branch?: string }): unknown {
  const p = examplePayload('workflow_job', 'completed');
  const [owner, name] = REPO.split('/') as [string, string];
  const repo = fake.repo(REPO);
  const installation = Object.values(fake.state.installations).find((i) => i.repos.includes(REPO))!;
  p.repository = { ...p.repository, id: repo.id, name, full_name: REPO, html_url: `https://github.com/${REPO}`, owner: { ...p.repository.owner, login: owner } };
  p.installation = { id: installation.id, node_id: 'MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uMQ==' };
  p.sender = { ...p.sender, login: 'octocat', type: 'User' };
  p.workflow_job = {
    ...p.workflow_job,
    id: job.id,
    name: job.name,
    workflow_name: job.workflow_name,
    head_sha: HEAD_SHA,
    status: 'completed',
    conclusion: job.conclusion ?? 'failure',
    html_url: `https://github.com/${REPO}/actions/runs/1/job/${job.id}`,
    // The job's run, as the fake has it: where the App's history lookup starts (github/history.ts).
    run_id: job.run_id ?? p.workflow_job.run_id,
    ...(job.run_attempt !== undefined ? { run_attempt: job.run_attempt } : {}),
    ...(job.head_branch !== undefined ? { head_branch: job.head_branch } : {}),
  };
  return p;
}
