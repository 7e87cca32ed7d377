import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM helper shared with the benchmark
import { gitDirOf } from '../../scripts/bench-pins-lib.mjs';
import { diagnoseWithTrace } from '../../src/diagnose.js';

/**
 * A change in a file the failing test imports, where the call graph reached nothing, is spared the "unreached"
 * discount only when the tests use that module under its own name and name none of its definitions (a UMD module,
 * golden case cucumber-js-slugify-locale-after-charmap). Two real cases (fixtures/real-pins) where the tests do
 * name the file's definitions, or never name the file at all, and the real fix changed the test's line:
 * - asciimoo/searx 306035079: test_google.py calls `google.request`, a name every searx engine defines; the
 *   breaking commit changed google.py's default language, and the fix changed the test's expected host (line 31).
 * - square/retrofit 104397133: ProtoConverterFactoryTest fails on a converter list; the breaking commit added a
 *   scalars converter in the same Java package, which the test never names; the fix changed the test (line 90).
 * Before this narrowing both pinned the changed source file with the diff. Runs where `fetch` brought the mirrors.
 */
const cases = [
  ['asciimoo-searx-306035079', 'tests/unit/engines/test_google.py:31'],
  ['square-retrofit-104397133', 'retrofit-converters/protobuf/src/test/java/retrofit2/ProtoConverterFactoryTest.java:90'],
] as const;
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

for (const [id, want] of cases) {
  const c = JSON.parse(readFileSync(new URL(`../../fixtures/real-pins/${id}/case.json`, import.meta.url), 'utf8'));
  const repoGit = gitDirOf(c.repo);
  const logGit = gitDirOf(c.log.dataset);
  describe.skipIf(!repoGit || !logGit)(`an imported change the graph did not reach stays unreached (real ${c.repo} failure)`, () => {
    it('pins the failing test line the real fix changed, not the changed source file', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'redline-unresolved-'));
      dirs.push(dir);
      const tree = join(dir, 'tree');
      execFileSync('git', ['clone', '--shared', '--no-checkout', '-q', repoGit, tree]);
      execFileSync('git', ['-C', tree, '-c', 'advice.detachedHead=false', 'checkout', '-q', '--detach', c.failing]);
      const log = join(dir, 'failing.log');
      writeFileSync(log, execFileSync('git', [`--git-dir=${logGit}`, 'show', `${c.log.commit}:${c.log.path}`], { maxBuffer: 64 << 20 }));
      const { diagnosis } = await diagnoseWithTrace({ log, repo: tree, base: c.base });
      expect(diagnosis.findings.map((f) => `${f.file}:${f.line}`)[0]).toBe(want);
    }, 180_000);
  });
}
