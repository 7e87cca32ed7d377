// Lays out a fixture case as a real git repository: base/ committed, then head.patch applied and
// committed, so `git diff HEAD~1...HEAD` is the PR. Shared by the golden test, the demo and the bench.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'redline-fixture',
  GIT_AUTHOR_EMAIL: 'fixture@redline.invalid',
  GIT_COMMITTER_NAME: 'redline-fixture',
  GIT_COMMITTER_EMAIL: 'fixture@redline.invalid',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
};

/** @returns {{ repo: string, base: string }} the repo folder and the base commit. */
export function layOutCase(caseDir, into) {
  const dir = into ?? mkdtempSync(join(tmpdir(), 'redline-case-'));
  const git = (...args) => execFileSync('git', args, { cwd: dir, env: GIT_ENV, stdio: ['ignore', 'pipe', 'pipe'] }).toString().trim();
  const baseDir = join(caseDir, 'base');
  if (existsSync(baseDir)) cpSync(baseDir, dir, { recursive: true });
  git('init', '-q', '-b', 'main');
  git('add', '-A', '-f');
  git('commit', '-q', '--allow-empty', '-m', 'base');
  const base = git('rev-parse', 'HEAD');
  const patch = join(caseDir, 'head.patch');
  if (existsSync(patch)) {
    git('apply', '--whitespace=nowarn', resolve(patch));
    git('add', '-A', '-f');
    git('commit', '-q', '--allow-empty', '-m', 'head');
  }
  return { repo: dir, base };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = layOutCase(process.argv[2], process.argv[3]);
  console.log(JSON.stringify(r));
}
