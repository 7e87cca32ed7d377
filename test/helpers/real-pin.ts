import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
// @ts-expect-error plain ESM helper shared with the benchmark
import { gitDirOf } from '../../scripts/bench-pins-lib.mjs';

/**
 * A real-pins case (fixtures/real-pins/<id>) for a test: its case.json, whether `fetch` brought both mirrors
 * (the project's and the log dataset's; CI has neither), and a checkout of the failing commit with its log,
 * made the way npm run bench:pins makes it (a shared clone: some mirrors lack large blobs `git archive` needs).
 */
export function realPin(id: string) {
  const c = JSON.parse(readFileSync(new URL(`../../fixtures/real-pins/${id}/case.json`, import.meta.url), 'utf8'));
  const repoGit: string | null = gitDirOf(c.repo);
  const logGit: string | null = gitDirOf(c.log.dataset);
  return {
    c,
    available: Boolean(repoGit && logGit),
    /** Inside a test: the failing tree and log in a temp folder, removed when the test ends. */
    checkout(): { tree: string; log: string } {
      const dir = mkdtempSync(join(tmpdir(), 'redline-real-pin-'));
      onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
      const tree = join(dir, 'tree');
      execFileSync('git', ['clone', '--shared', '--no-checkout', '-q', repoGit!, tree]);
      execFileSync('git', ['-C', tree, '-c', 'advice.detachedHead=false', 'checkout', '-q', '--detach', c.failing]);
      const log = join(dir, 'failing.log');
      writeFileSync(log, execFileSync('git', [`--git-dir=${logGit}`, 'show', `${c.log.commit}:${c.log.path}`], { maxBuffer: 64 << 20 }));
      return { tree, log };
    },
  };
}
