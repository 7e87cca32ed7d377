import { describe, expect, it } from 'vitest';
import { flake8Matcher } from '../../../src/extract/matchers/flake8.js';
import { logLines } from '../../helpers/log.js';

const log = (c: string) => logLines(`fixtures/logs/${c}/log.txt`);

describe('flake8Matcher', () => {
  it('reads `path:line:col: CODE msg`, keeping the ./ path and naming the quoted identifier', () => {
    expect(flake8Matcher.extract(log('flake8-undefined-name'))).toEqual([
      {
        kind: 'diagnostic',
        path: './webhooks/dispatch.py',
        line: 3,
        column: 1,
        symbol: 'time',
        message: "F401 'time' imported but unused",
        tool: 'flake8',
        severity: 'error',
        category: 'lint',
        weight: 1,
        logLine: 1,
      },
      {
        kind: 'diagnostic',
        path: './webhooks/dispatch.py',
        line: 31,
        column: 13,
        symbol: 'logger',
        message: "F821 undefined name 'logger'",
        tool: 'flake8',
        severity: 'error',
        category: 'lint',
        weight: 1,
        logLine: 2,
      },
    ]);
  });

  it('returns nothing for other tools (mypy lines have no column code pair)', () => {
    for (const c of ['mypy-arg-type', 'mypy-return-optional', 'pytest-keyerror-in-source', 'unittest-fail-duration-format']) {
      expect(flake8Matcher.extract(log(c))).toEqual([]);
    }
  });
});
