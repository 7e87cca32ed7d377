import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM helper shared with the benchmark
import { gitDirOf } from '../../scripts/bench-pins-lib.mjs';
import { diagnoseWithTrace } from '../../src/diagnose.js';

/**
 * With the breaking commit's diff, a hunk changed elsewhere in the function the innermost frame raised in
 * ranks just below that frame's own line: the diff says which function broke, the frame says which line.
 * Two real cases (fixtures/real-pins: the BugSwarm dissection's failing log, the failing commit's tree, its
 * parent as --base), both pinned right without the diff and wrong with it before this rule:
 * - openmicroscopy/bioformats 251797108: `NullPointerException` at ImagePlusReader.constructSliceLabel
 *   (ImagePlusReader.java:596, a changed line the real fix changed again); the breaking commit also changed
 *   lines 620-630 of that method, and line 630 was pinned.
 * - indico/indico 337640094: `ImportError: No module named groups` at indico/util/user.py:43 (an import inside
 *   `principal_from_fossil`, the line the real fix changed); the breaking commit changed that function's
 *   signature (41) and its `EventRole` branch (100), and line 100 was pinned.
 * Runs where `fetch` brought the mirrors (like npm run bench:pins).
 */
const cases = [
  ['openmicroscopy-bioformats-251797108', 'components/bio-formats-plugins/src/loci/plugins/in/ImagePlusReader.java:596', 'components/bio-formats-plugins/src/loci/plugins/in/ImagePlusReader.java:630'],
  ['indico-indico-337640094', 'indico/util/user.py:43', 'indico/util/user.py:100'],
] as const;
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

for (const [id, want, changedBeside] of cases) {
  const c = JSON.parse(readFileSync(new URL(`../../fixtures/real-pins/${id}/case.json`, import.meta.url), 'utf8'));
  const repoGit = gitDirOf(c.repo);
  const logGit = gitDirOf(c.log.dataset);
  describe.skipIf(!repoGit || !logGit)(`the raising frame's line in a function the diff changed (real ${c.repo} failure)`, () => {
    it('pins the line the frame raised at, above the other changed lines of its function', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'redline-raiseline-'));
      dirs.push(dir);
      const tree = join(dir, 'tree');
      execFileSync('git', ['clone', '--shared', '--no-checkout', '-q', repoGit, tree]);
      execFileSync('git', ['-C', tree, '-c', 'advice.detachedHead=false', 'checkout', '-q', '--detach', c.failing]);
      const log = join(dir, 'failing.log');
      writeFileSync(log, execFileSync('git', [`--git-dir=${logGit}`, 'show', `${c.log.commit}:${c.log.path}`], { maxBuffer: 64 << 20 }));
      const { diagnosis } = await diagnoseWithTrace({ log, repo: tree, base: c.base });
      const pins = diagnosis.findings.map((f) => `${f.file}:${f.line}`);
      expect(pins[0]).toBe(want);
      // The other changed line is still a finding, below the frame's.
      expect(pins.indexOf(changedBeside)).toBeGreaterThan(0);
    }, 180_000);
  });
}
