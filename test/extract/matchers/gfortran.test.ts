import { describe, expect, it } from 'vitest';
import { gfortranMatcher } from '../../../src/extract/matchers/gfortran.js';
import { logLines } from '../../helpers/log.js';

describe('gfortranMatcher', () => {
  it('reads each diagnostic from its lone location line to its Error: verdict, the excerpt between as related', () => {
    const s = gfortranMatcher.extract(logLines('fixtures/recorded/gfortran/gfortran-wall.log'));
    expect(s.map((x) => `${x.path}:${x.line}:${x.column}`)).toEqual([
      'src/foo.f90:14:25', 'src/foo.f90:15:21', 'src/foo.f90:15:7', 'src/foo90.f90:3:19', 'src/foo90.f90:4:22',
      'src/foo90.f90:5:19', 'src/foo90.f90:6:12', 'src/foo90.f90:7:10',
    ]);
    expect(s[1]).toMatchObject({ kind: 'diagnostic', message: 'Symbol ‘missing_sum’ at (1) has no IMPLICIT type', tool: 'gfortran',
      severity: 'error', category: 'compile', weight: 1, logLine: 6, related: [7, 8, 9, 10] });
  });

  it('reads the golden case, whose location is relative to the folder gfortran ran in', () => {
    expect(gfortranMatcher.extract(logLines('fixtures/logs/gfortran-implicit-none-renamed-loop/log.txt'))).toMatchObject([
      { path: 'foo_mod.f90', line: 17, column: 8, message: 'Symbol ‘idx’ at (1) has no IMPLICIT type' },
    ]);
  });

  it("returns nothing for gcc's and other compilers' one-line diagnostics", () => {
    expect(gfortranMatcher.extract(logLines('fixtures/logs/gdc-undefined-identifier-ascii/log.txt'))).toEqual([]);
    expect(gfortranMatcher.extract(logLines('fixtures/logs/fpc-wrong-parameter-count-qsort/log.txt'))).toEqual([]);
  });
});
