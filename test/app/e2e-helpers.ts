/** Setup for the App's end-to-end tests: the fake GitHub, Probot started for real, the fixture repo. */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { createNodeMiddleware, Probot, ProbotOctokit, type Logger } from 'probot';
import { createRedlineApp, type AppOptions } from '../../src/doors/app.js';
import type { JobQueue } from '../../src/queue/queue.js';
import { examplePayload, generateAppKey, makeTarball, startFakeGitHub, type FakeGitHub, type FakePullFile } from '../helpers/fake-github/index.js';

export const FIXTURE = join(import.meta.dirname, '../../fixtures/logs/tsc-signature-change-call-site');

/** The PR also touched receipt.ts line 15 (it reformatted the line and missed the new argument): a hunk that puts the pin inside the diff. */
export const RECEIPT_EDIT = {
  filename: 'src/receipt.ts',
  status: 'modified' as const,
  patch: [
    '@@ -12,7 +12,7 @@ export function renderReceipt(payment: Payment): string {',
    '   const balance = due - payment.paidCents;',
    '   const lines = [',
    '     `Receipt for invoice ${payment.invoice.number}`,',
    '-    `Paid on ${payment.paidAt.toISOString().slice(0, 10)}:  ${formatMoney(payment.paidCents)}`,',
    '+    `Paid on ${payment.paidAt.toISOString().slice(0, 10)}: ${formatMoney(payment.paidCents)}`,',
    '   ];',
    '   if (balance !== 0) lines.push(`Balance: ${formatMoney(balance)}`);',
    "   return lines.join('\\n');",
  ].join('\n'),
};
export const SECRET = 'webhook-secret';
export const REPO = 'octo-org/invoicer';
export const HEAD_SHA = 'c0ffee'.padEnd(40, '1');

/** The fixture's `base/` with `head.patch` applied: the repository at the failing commit. */
export function headFiles(): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), 'redline-head-'));
  try {
    cpSync(join(FIXTURE, 'base'), dir, { recursive: true });
    execFileSync('git', ['apply', join(FIXTURE, 'head.patch')], { cwd: dir });
    const files: Record<string, string> = {};
    const walk = (d: string): void => {
      for (const name of readdirSync(d)) {
        const p = join(d, name);
        if (statSync(p).isDirectory()) walk(p);
        else files[relative(dir, p)] = readFileSync(p, 'utf8');
      }
    };
    walk(dir);
    return files;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `head.patch` as the PR files API gives it: one entry per file, `patch` from the first hunk on. */
export function patchFiles(): FakePullFile[] {
  const text = readFileSync(join(FIXTURE, 'head.patch'), 'utf8');
  return text
    .split(/^diff --git /m)
    .filter(Boolean)
    .map((section) => {
      const filename = /^\+\+\+ b\/(.+)$/m.exec(section)![1]!;
      const patch = section.slice(section.indexOf('\n@@') + 1).replace(/\n$/, '');
      return { filename, status: 'modified' as const, patch };
    });
}

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
  fake.repo(REPO).tarballs[HEAD_SHA] = makeTarball(headFiles(), `octo-org-invoicer-${HEAD_SHA.slice(0, 7)}`, { sha: HEAD_SHA });
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
export function workflowJobPayload(fake: FakeGitHub, job: { id: number; name: string; workflow_name: string; conclusion?: string | null }): unknown {
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
  };
  return p;
}
