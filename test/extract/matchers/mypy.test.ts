import { describe, expect, it } from 'vitest';
import { mypyMatcher } from '../../../src/extract/matchers/mypy.js';
import { logLines } from '../../helpers/log.js';

const log = (c: string) => logLines(`fixtures/logs/${c}/log.txt`);

describe('mypyMatcher', () => {
  it('reads `path:line: error: msg  [code]` lines', () => {
    expect(mypyMatcher.extract(log('mypy-arg-type'))).toEqual([
      {
        kind: 'diagnostic',
        path: 'src/shipping/quote.py',
        line: 6,
        message: 'Generator has incompatible item type "float"; expected "bool"  [misc]',
        tool: 'mypy',
        severity: 'error',
        category: 'compile',
        weight: 1,
        logLine: 1,
      },
      {
        kind: 'diagnostic',
        path: 'src/shipping/quote.py',
        line: 6,
        message: 'Argument 2 to "price" has incompatible type "Optional[str]"; expected "bool"  [arg-type]',
        tool: 'mypy',
        severity: 'error',
        category: 'compile',
        weight: 1,
        logLine: 2,
      },
    ]);
  });

  it('reads the column under show_column_numbers, inside an Actions log', () => {
    expect(mypyMatcher.extract(log('mypy-return-optional'))).toEqual([
      {
        kind: 'diagnostic',
        path: 'accounts/names.py',
        line: 10,
        column: 12,
        message: 'Incompatible return value type (got "Optional[str]", expected "str")  [return-value]',
        tool: 'mypy',
        severity: 'error',
        category: 'compile',
        weight: 1,
        logLine: 18,
      },
    ]);
  });

  it('returns nothing for other tools', () => {
    for (const c of ['flake8-undefined-name', 'pytest-keyerror-in-source', 'unittest-error-missing-column']) {
      expect(mypyMatcher.extract(log(c))).toEqual([]);
    }
  });
});
