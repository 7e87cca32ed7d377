import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
// @ts-expect-error plain ESM helper shared with the golden test and the bench
import { layOutCase } from '../../scripts/lay-out-case.mjs';
import { gitDiff, isChangedLine, isInHunk, parseUnifiedDiff, type PrDiff } from '../../src/repo/diff.js';
import { GitError } from '../../src/errors.js';

const LOGS = fileURLToPath(new URL('../../fixtures/logs/', import.meta.url));
const CASES = readdirSync(LOGS).filter((c) => existsSync(join(LOGS, c, 'head.patch')));

const laidOut = new Map<string, { repo: string; base: string }>();
function repoOf(name: string): { repo: string; base: string } {
  let r = laidOut.get(name);
  if (!r) {
    r = layOutCase(join(LOGS, name)) as { repo: string; base: string };
    laidOut.set(name, r);
  }
  return r;
}
afterAll(() => {
  for (const { repo } of laidOut.values()) rmSync(repo, { recursive: true, force: true });
});

const patchOf = (name: string) => parseUnifiedDiff(readFileSync(join(LOGS, name, 'head.patch'), 'utf8'));

/** The diff as plain data, for equality. */
function plain(d: PrDiff) {
  return d.files.map((f) => ({ file: f.file, added: f.hunks.flatMap((h) => h.added) }));
}

describe('parseUnifiedDiff on recorded head.patch files', () => {
  it('has cases to read', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(40);
  });

  it.each(CASES)("%s: every added line's number is that line in the head checkout", (name) => {
    const diff = patchOf(name);
    expect(diff.files.length).toBeGreaterThan(0);
    const { repo } = repoOf(name);
    for (const f of diff.files) {
      expect(f.file).not.toMatch(/^[ab]\//);
      expect(diff.byFile.get(f.file)).toBe(f);
      const lines = readFileSync(join(repo, f.file), 'utf8').split('\n');
      for (const h of f.hunks) {
        expect(h.start).toBeGreaterThanOrEqual(1);
        expect(h.end).toBeGreaterThanOrEqual(h.start);
        for (const a of h.added) {
          expect(lines[a.n - 1], `${name} ${f.file}:${a.n}`).toBe(a.text);
          expect(a.n).toBeGreaterThanOrEqual(h.start);
          expect(a.n).toBeLessThanOrEqual(h.end);
          expect(isChangedLine(diff, f.file, a.n)).toBe(true);
        }
      }
    }
  });

  it('reads a changed signature as one removed and one added line (tsc-signature-change-call-site)', () => {
    const diff = patchOf('tsc-signature-change-call-site');
    expect(diff.files.map((f) => f.file)).toEqual(['src/invoice.ts', 'src/money.ts']);
    const money = diff.byFile.get('src/money.ts')!;
    expect(money.hunks).toHaveLength(1);
    expect(money.hunks[0]!.removed).toContain('export function formatMoney(cents: number): string {');
    expect(money.hunks[0]!.added.map((a) => a.n)).toEqual([3, 4, 5, 6, 7, 12]);
    expect(money.hunks[0]!.added.find((a) => a.n === 7)?.text).toBe('export function formatMoney(cents: number, currency: Currency): string {');
    // Context lines inside the hunk are in it but not changed.
    expect(isInHunk(diff, 'src/money.ts', 8)).toBe(true);
    expect(isChangedLine(diff, 'src/money.ts', 8)).toBe(false);
    expect(isChangedLine(diff, 'src/receipt.ts', 15)).toBe(false);
    expect(isChangedLine(undefined, 'src/money.ts', 7)).toBe(false);
  });

  it('reads a new file (--- /dev/null) as all lines added', () => {
    const diff = patchOf('mypy-arg-type');
    const cli = diff.byFile.get('src/shipping/cli.py')!;
    expect(cli.hunks).toHaveLength(1);
    expect(cli.hunks[0]!.start).toBe(1);
    expect(cli.hunks[0]!.added.map((a) => a.n)).toEqual([...Array(13).keys()].map((i) => i + 1));
    expect(cli.hunks[0]!.removed).toEqual([]);
  });

  it('files a rename under its new name, with only the lines it changed', () => {
    const diff = patchOf('tsc-relative-import-renamed-file');
    expect(diff.files.map((f) => f.file)).toEqual(['src/format/csv.ts', 'src/report.ts']);
    expect(diff.byFile.has('src/util/csv.ts')).toBe(false);
    expect(diff.byFile.get('src/format/csv.ts')!.hunks.flatMap((h) => h.added.map((a) => a.n))).toEqual([10, 11, 12, 13]);
  });
});

describe('parseUnifiedDiff on edge shapes', () => {
  it('a deletion-only hunk has no added lines and sits where the lines were', () => {
    const diff = parseUnifiedDiff(
      ['diff --git a/x.py b/x.py', '--- a/x.py', '+++ b/x.py', '@@ -5,2 +4,0 @@ def f():', '-    a = 1', '-    b = 2', ''].join('\n'),
    );
    const h = diff.byFile.get('x.py')!.hunks[0]!;
    expect(h).toEqual({ start: 4, end: 4, added: [], removed: ['    a = 1', '    b = 2'] });
    expect(isInHunk(diff, 'x.py', 4)).toBe(true);
    expect(isChangedLine(diff, 'x.py', 4)).toBe(false);
  });

  it('skips a deleted file (+++ /dev/null) and does not add its lines to the file before it', () => {
    const text = [
      'diff --git a/a.ts b/a.ts',
      '--- a/a.ts',
      '+++ b/a.ts',
      '@@ -1 +1 @@',
      '-old',
      '+new',
      'diff --git a/gone.ts b/gone.ts',
      'deleted file mode 100644',
      '--- a/gone.ts',
      '+++ /dev/null',
      '@@ -1,2 +0,0 @@',
      '-bye',
      '-bye',
      '',
    ].join('\n');
    const diff = parseUnifiedDiff(text);
    expect(diff.files.map((f) => f.file)).toEqual(['a.ts']);
    expect(diff.byFile.get('a.ts')!.hunks).toEqual([{ start: 1, end: 1, added: [{ n: 1, text: 'new' }], removed: ['old'] }]);
    // Without the `diff --git` lines (per-file patches joined with headers), the same.
    const headerless = parseUnifiedDiff(text.split('\n').filter((l) => !/^(diff --git|deleted file)/.test(l)).join('\n'));
    expect(headerless.files.map((f) => f.file)).toEqual(['a.ts']);
    expect(headerless.byFile.get('a.ts')!.hunks).toEqual(diff.byFile.get('a.ts')!.hunks);
  });

  it('a pure rename (no hunks) changes no lines', () => {
    const diff = parseUnifiedDiff(['diff --git a/old.ts b/new.ts', 'similarity index 100%', 'rename from old.ts', 'rename to new.ts', ''].join('\n'));
    expect(diff.files).toEqual([]);
  });

  it('reads added "++ x" and removed "-- x" lines inside a hunk as content, not file headers', () => {
    const text = ['--- a/q.sql', '+++ b/q.sql', '@@ -1,3 +1,3 @@', '--- old comment', '+++ counter', ' select 1;', '-x', '+y', ''].join('\n');
    const diff = parseUnifiedDiff(text);
    expect(diff.files.map((f) => f.file)).toEqual(['q.sql']);
    const h = diff.byFile.get('q.sql')!.hunks[0]!;
    expect(h.added).toEqual([
      { n: 1, text: '++ counter' },
      { n: 3, text: 'y' },
    ]);
    expect(h.removed).toEqual(['-- old comment', 'x']);
  });

  it('ignores "\\ No newline at end of file" and takes a hunk without counts as one line', () => {
    const diff = parseUnifiedDiff(['--- a/n.txt', '+++ b/n.txt', '@@ -3 +3 @@', '-a', '\\ No newline at end of file', '+b', '\\ No newline at end of file', ''].join('\n'));
    expect(diff.byFile.get('n.txt')!.hunks).toEqual([{ start: 3, end: 3, added: [{ n: 3, text: 'b' }], removed: ['a'] }]);
  });
});

describe('gitDiff', () => {
  it.each(CASES)('%s: git diff base...HEAD of the laid-out case equals its head.patch', async (name) => {
    const { repo, base } = repoOf(name);
    expect(plain(await gitDiff(repo, base))).toEqual(plain(patchOf(name)));
  });

  it('is not fooled by a user config that drops the a/ b/ prefixes', async () => {
    const { repo, base } = repoOf('tsc-signature-change-call-site');
    execFileSync('git', ['config', 'diff.noprefix', 'true'], { cwd: repo });
    try {
      expect((await gitDiff(repo, base)).files.map((f) => f.file)).toEqual(['src/invoice.ts', 'src/money.ts']);
    } finally {
      execFileSync('git', ['config', '--unset', 'diff.noprefix'], { cwd: repo });
    }
  });

  it('rejects a base that is not a commit of the repo with a GitError that says what to do', async () => {
    const { repo } = repoOf('tsc-signature-change-call-site');
    for (const bad of ['no-such-branch', '0123456789abcdef0123456789abcdef01234567']) {
      const err = await gitDiff(repo, bad).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(GitError);
      expect((err as Error).message).toContain(`git diff ${bad}...HEAD failed`);
      expect((err as Error).message).toContain('check that --base names a commit of this repo');
      expect((err as Error).message).not.toContain('\n');
    }
  });

  it('refuses a base that looks like a flag', async () => {
    const { repo } = repoOf('tsc-signature-change-call-site');
    await expect(gitDiff(repo, '--output=/tmp/x')).rejects.toBeInstanceOf(GitError);
  });

  it('fails with a GitError outside a git repository', async () => {
    const { repo } = repoOf('tsc-signature-change-call-site');
    const notGit = join(repo, 'src');
    writeFileSync(join(notGit, '.git'), 'not a git dir\n');
    try {
      await expect(gitDiff(notGit, 'HEAD~1')).rejects.toBeInstanceOf(GitError);
    } finally {
      rmSync(join(notGit, '.git'));
    }
  });
});
