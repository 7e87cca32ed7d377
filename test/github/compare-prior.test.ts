import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { layOutCase } from '../../scripts/lay-out-case.mjs';
import { diagnose } from '../../src/diagnose.js';
import { priorFromCompare } from '../../src/github/compare.js';
import { renderJson } from '../../src/report/json.js';
import { parseUnifiedDiff } from '../../src/repo/diff.js';

/**
 * The compare prior (issue 15, part 5) in the core: the commits since the last green run, as GitHub's
 * compare lists their files, are blamed for a push and for a PR whose diff does not reach the failure;
 * never for pre-existing failures. The case: tsc-signature-change-call-site (recorded tsc output).
 */
const CASE = join(import.meta.dirname, '../../fixtures/logs/tsc-signature-change-call-site');
const LOG = join(CASE, 'log.txt');
const { repo } = layOutCase(CASE) as { repo: string };
afterAll(() => rmSync(repo, { recursive: true, force: true }));
const GREEN = '01d0'.padEnd(40, '0');
const RED = 'c0ffee'.padEnd(40, '1');
/** head.patch's files as compare lists them (filename + patch), plus a file too large for a patch. */
const files = readFileSync(join(CASE, 'head.patch'), 'utf8').split(/^diff --git /m).filter(Boolean).map((sec) => ({
  filename: /^\+\+\+ b\/(.+)$/m.exec(sec)![1]!,
  status: 'modified',
  patch: sec.slice(sec.indexOf('\n@@') + 1).replace(/\n$/, ''),
  changes: 1,
}));
const prior = priorFromCompare(GREEN, RED, { html_url: 'https://github.com/o/r/compare/x...y', status: 'ahead', total_commits: 2, files: [...files, { filename: 'data/big.json', status: 'modified', changes: 80_000 }] })!;
const readmeOnly = parseUnifiedDiff('--- a/README.md\n+++ b/README.md\n@@ -1,1 +1,1 @@\n-a\n+b\n');
const lastGreen = { runId: 800, sha: GREEN };

describe('the compare prior', () => {
  it('reads compare\'s files as a diff and says what it cut', () => {
    expect(prior.diff.files.map((f) => f.file).sort()).toEqual(['data/big.json', 'src/invoice.ts', 'src/money.ts']);
    expect(prior.range).toMatchObject({ base: GREEN, head: RED, commits: 2, files: 3, truncated: '1 file without a patch (too large or binary: changed, no line known)' });
    const many = priorFromCompare(GREEN, RED, { total_commits: 400, files: Array.from({ length: 300 }, (_, i) => ({ filename: `f${i}.ts`, status: 'added', patch: '@@ -0,0 +1 @@\n+x' })) })!;
    expect(many.range.truncated).toMatch(/^GitHub lists only the first 300 changed files of the range$/);
    expect(priorFromCompare(GREEN, RED, { status: 'identical', total_commits: 0, files: [] })).toBeUndefined();
  });

  it('a push: no PR diff, the range is blamed (the changed definition among the findings), and the JSON says so', async () => {
    const d = await diagnose({ log: LOG, repo, priorDiff: prior, history: { lastGreen } });
    expect(d.history?.blamedRange).toMatchObject({ why: 'push', commits: 2, files: 3 });
    expect(d.findings.map((f) => f.file)).toContain('src/money.ts');
    expect(JSON.parse(renderJson(d)).history.blamedRange).toMatchObject({ base: GREEN, head: RED, why: 'push' });
    // A push has no PR: what the findings say changed the line is the range, never "the PR".
    const said = JSON.stringify(d.findings);
    expect(said).toMatch(/the commits since the last green run/);
    expect(said).not.toMatch(/\bthe PR\b|this PR/);
  });

  it('a PR diff that reaches none of the candidates: the range instead; one that does: its own', async () => {
    const silent = await diagnose({ log: LOG, repo, diff: readmeOnly, priorDiff: prior, history: { lastGreen } });
    expect(silent.history?.blamedRange?.why).toBe('silent-diff');
    expect(silent.findings.map((f) => f.file)).toContain('src/money.ts');
    const own = await diagnose({ log: LOG, repo, diff: prior.diff, priorDiff: { ...prior, diff: readmeOnly }, history: { lastGreen } });
    expect(own.history?.blamedRange).toBeUndefined();
  });

  it('without the prior the silent PR blames nothing of the range', async () => {
    const d = await diagnose({ log: LOG, repo, diff: readmeOnly, history: { lastGreen } });
    expect(d.history?.blamedRange).toBeUndefined();
    expect(d.findings.map((f) => f.file)).not.toContain('src/money.ts');
  });
});
