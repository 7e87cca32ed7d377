import { describe, expect, it } from 'vitest';
import { pythonFormatMatcher } from '../../../src/extract/matchers/python-format.js';
import { logLines } from '../../helpers/log.js';

const rec = (f: string) => pythonFormatMatcher.extract(logLines(`fixtures/recorded/python-lint/${f}`));
const P = '/home/runner/work/report/report/pkg/report.py';

describe('pythonFormatMatcher', () => {
  it('reads black --check (a file, no line) and black --diff (the first changed line of each hunk)', () => {
    expect(rec('black-check.log')).toEqual([{ kind: 'diagnostic', path: P, message: `would reformat ${P}`, tool: 'black', severity: 'error',
      category: 'lint', weight: 0.8, logLine: 1 }]);
    // The hunk starts at line 10 with context; the line black rewrites is 15 (a blank context line included).
    expect(rec('black-diff.log')[0]).toMatchObject({ path: P, line: 15, tool: 'black', logLine: 3, related: [4, 5, 6, 7, 8, 9, 10] });
  });

  it('reads isort --check-only, and --diff with the hunk', () => {
    expect(rec('isort-check.log')).toMatchObject([{ path: P, tool: 'isort', message: 'Imports are incorrectly sorted and/or formatted.' }]);
    // the hunk moves `import os` above `import sys`: placed where it stands, line 3 (the removed one), not where it goes
    expect(rec('isort-diff.log')[1]).toMatchObject({ path: P, line: 3, tool: 'isort', logLine: 4 });
  });

  it('returns nothing for other tools', () => {
    expect(rec('pylint.log')).toEqual([]);
    expect(pythonFormatMatcher.extract(logLines('fixtures/logs/prettier-check-unformatted/log.txt'))).toEqual([]);
  });
});
