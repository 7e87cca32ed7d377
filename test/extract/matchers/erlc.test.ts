import { describe, expect, it } from 'vitest';
import { erlcMatcher } from '../../../src/extract/matchers/erlc.js';
import { logLines } from '../../helpers/log.js';

describe('erlcMatcher', () => {
  it("reads erlc's errors with the quoted line and caret as related", () => {
    expect(erlcMatcher.extract(logLines('fixtures/recorded/eunit/erlc.log'))).toEqual([
      { kind: 'diagnostic', path: 'src/broken.erl', line: 9, column: 1, message: 'syntax error before: unused', tool: 'erlc',
        severity: 'error', category: 'compile', weight: 1, logLine: 1, related: [2, 3] },
      { kind: 'diagnostic', path: 'src/broken.erl', line: 3, column: 2, message: 'function pad/2 undefined', tool: 'erlc',
        severity: 'error', category: 'compile', weight: 1, logLine: 5, related: [6, 7] },
    ]);
  });

  it("reads rebar3 compile's report", () => {
    expect(erlcMatcher.extract(logLines('fixtures/recorded/eunit/rebar3-compile.log')).map((s) => [s.path, s.line, s.logLine])).toEqual([
      ['src/broken.erl', 9, 5],
      ['src/broken.erl', 3, 7],
    ]);
  });

  it('returns nothing for other tools', () => {
    expect(erlcMatcher.extract(logLines('fixtures/recorded/eunit/eunit-verbose.log'))).toEqual([]);
    expect(erlcMatcher.extract(logLines('fixtures/logs/gcc-compile-error/log.txt'))).toEqual([]);
  });
});
