import { describe, expect, it } from 'vitest';
import { jshintMatcher } from '../../../src/extract/matchers/jshint.js';
import { logLines } from '../../helpers/log.js';

describe('jshintMatcher', () => {
  it("reads the default reporter's `file: line N, col M, message` rows", () => {
    const s = jshintMatcher.extract(logLines('fixtures/recorded/jshint/default.log'));
    expect(s.map((x) => `${x.path}:${x.line}:${x.column}`)).toEqual(['index.js:28:3', 'index.js:59:3', 'index.js:59:33', 'index.js:60:3']);
    expect(s[2]).toEqual({ kind: 'diagnostic', path: 'index.js', line: 59, column: 33, message: 'Missing semicolon.', tool: 'jshint',
      severity: 'error', category: 'lint', weight: 1, logLine: 3 });
  });

  it('keeps the code --verbose adds as the symbol', () => {
    const s = jshintMatcher.extract(logLines('fixtures/recorded/jshint/verbose.log'));
    expect(s.map((x) => x.symbol)).toEqual(['W104', 'W104', 'W033', 'W104']);
    expect(s[2]!.message).toBe('Missing semicolon.');
  });

  it("returns nothing for bash's `file: line N:` and other tools", () => {
    expect(jshintMatcher.extract(logLines('fixtures/logs/bash-n-missing-then-version-file/log.txt'))).toEqual([]);
    expect(jshintMatcher.extract(logLines('fixtures/logs/eslint-no-undef-compact-format/log.txt'))).toEqual([]);
  });
});
