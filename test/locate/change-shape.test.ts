import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { shapeOfHunk } from '../../src/locate/change-shape.js';
import { parseUnifiedDiff } from '../../src/repo/diff.js';
// @ts-expect-error: a plain ESM script without types, shared with the bench.
import { gitDirOf } from '../../scripts/bench-pins-lib.mjs';

// Real hunks of real breaking commits: `git diff -U0 <base> <failing> -- <file>` of a real-pins case, read
// from the project's mirror that `fetch` brought (its code stays out of commits). Without the mirrors (CI,
// a fresh clone) this file is skipped.
const hunkOf = (caseId: string, file: string) => {
  const c = JSON.parse(readFileSync(new URL(`../../fixtures/real-pins/${caseId}/case.json`, import.meta.url), 'utf8')) as { repo: string; base: string; failing: string };
  const diff = execFileSync('git', ['--git-dir', gitDirOf(c.repo) as string, 'diff', '-U0', c.base, c.failing, '--', file]).toString();
  return parseUnifiedDiff(diff).files[0]!.hunks[0]!;
};
const MIRRORS = ['uwescience/myria', 'NMGRL/pychron', 'mybatis/mybatis-3'].every((r) => gitDirOf(r) !== null);

describe.skipIf(!MIRRORS)('shapeOfHunk: hunks that only take code away', () => {
  it('blames a deleted catch block at the line before it (where the fix puts it back)', () => {
    // myria 1cb7025: two `catch` clauses of TipsyFileScan.openFileOrUrlInputStream deleted after line 340;
    // the real fix re-added them between lines 340 and 341.
    const shapes = shapeOfHunk(hunkOf('uwescience-myria-122377299', 'src/edu/washington/escience/myria/operator/TipsyFileScan.java'));
    expect(shapes).toHaveLength(1);
    expect(shapes[0]).toMatchObject({ n: 340, removedOnly: true, reason: 'removes code' });
    expect(shapes[0]!.prior).toBeGreaterThan(0);
  });

  it('reads code left commented out as removed, and a removed branch as a dropped condition', () => {
    // pychron 7c26cf9: `elif hasattr(self, attr): r = getattr(self, attr)` commented out at line 239.
    const shapes = shapeOfHunk(hunkOf('NMGRL-pychron-289557468', 'pychron/processing/arar_age.py'));
    expect(shapes).toHaveLength(1);
    expect(shapes[0]).toMatchObject({ n: 239, removedOnly: true, reason: 'removes a condition', prior: 0.3 });
  });

  it('ranks a removed declaration (an annotation element) low: it breaks a build, not a test', () => {
    // mybatis-3 5da14eb: `String resultSets() default "";` removed from @Select.
    const shapes = shapeOfHunk(hunkOf('mybatis-mybatis-3-117115624', 'src/main/java/org/apache/ibatis/annotations/Select.java'));
    expect(shapes).toHaveLength(1);
    expect(shapes[0]).toMatchObject({ n: 29, reason: 'removes a declaration' });
    expect(shapes[0]!.prior).toBeLessThan(0);
  });
});
