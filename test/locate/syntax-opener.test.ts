import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diagnoseWithTrace } from '../../src/diagnose.js';
import { candidatesFromSignals } from '../../src/locate/from-signals.js';
import { openWorkspace } from '../../src/repo/workspace.js';
// @ts-expect-error: a plain ESM script without types, shared with the bench.
import { DISSECTION, gitDirOf } from '../../scripts/bench-pins-lib.mjs';

// A real failure: fixtures/real-pins/pydanny-cookiecutter-django-74345072. flake8 (run by the project's
// pytest) reports `users/models.py:18:8: E901 SyntaxError: invalid syntax` (and E128 on the same line) for
// line 16, `name = models.CharField(_("Name of User)", blank=True, max_length=255)`, whose quote swallowed a
// bracket; line 18 is `def __str__(self):`, where the parser gave up. The log and the file are read from the
// mirrors `fetch` brought (never committed); without them (CI, a fresh clone) this file is skipped.
const CASE = 'pydanny-cookiecutter-django-74345072';
const FILE = '{{cookiecutter.repo_name}}/{{cookiecutter.repo_name}}/users/models.py';
const c = JSON.parse(readFileSync(new URL(`../../fixtures/real-pins/${CASE}/case.json`, import.meta.url), 'utf8')) as { repo: string; failing: string; log: { path: string; commit: string } };
const MIRRORS = gitDirOf(c.repo) !== null && gitDirOf(DISSECTION) !== null;

/** The failing log and a checkout holding only the reported file, from the mirrors. */
function fromMirrors(): { log: string; repo: string } {
  const dir = mkdtempSync(join(tmpdir(), 'redline-syntax-opener-'));
  const log = join(dir, 'failing.log');
  writeFileSync(log, execFileSync('git', ['--git-dir', gitDirOf(DISSECTION) as string, 'show', `${c.log.commit}:${c.log.path}`], { maxBuffer: 64 << 20 }));
  const repo = join(dir, 'tree');
  mkdirSync(dirname(join(repo, FILE)), { recursive: true });
  writeFileSync(join(repo, FILE), execFileSync('git', ['--git-dir', gitDirOf(c.repo) as string, 'show', `${c.failing}:${FILE}`]));
  return { log, repo };
}

describe.skipIf(!MIRRORS)('a Python syntax error reported at the statement after an unclosed bracket', () => {
  it('pins the line that opened the bracket, above the knock-on style reports on the reported line', async () => {
    const { log, repo } = fromMirrors();
    const { diagnosis, trace } = await diagnoseWithTrace({ log, repo });
    expect(`${diagnosis.findings[0]!.file}:${diagnosis.findings[0]!.line}`).toBe(`${FILE}:16`);
    const moved = trace.candidates.find((x: { file: string; line: number }) => x.file === FILE && x.line === 16)!;
    expect(moved.notes.some((n: string) => n.includes('Python reports an unclosed bracket'))).toBe(true);
    // E128 on line 18 is not a syntax error: it stays where flake8 put it, below.
    expect(diagnosis.findings.slice(1).some((f: { file: string; line: number }) => f.file === FILE && f.line === 18)).toBe(true);
  }, 60_000);

  it('leaves a syntax error where it is when its line begins no statement, or the bracket above is closed by then', async () => {
    const { repo } = fromMirrors();
    const ws = await openWorkspace(repo);
    const at = (line: number) => candidatesFromSignals([{ kind: 'diagnostic', tool: 'flake8', path: FILE, line, message: 'E901 SyntaxError: invalid syntax', weight: 1, logLine: 1 }], ws, undefined)[0]!.line;
    // Line 16 (`name = models.CharField(…`) begins no statement: the parser did not run on past it.
    expect(at(16)).toBe(16);
    // Line 12 (`class User(AbstractUser):`) begins a statement, with nothing left open above it.
    expect(at(12)).toBe(12);
    expect(at(18)).toBe(16);
  });
});
