import { describe, expect, it } from 'vitest';
import { clojureTestMatcher } from '../../../src/extract/matchers/clojure-test.js';
import { logLines } from '../../helpers/log.js';

describe('clojureTestMatcher', () => {
  it("pins a failed assertion to its line, in the file of lein's `:only` namespace", () => {
    const log = logLines('fixtures/recorded/clojure/lein-test-fail.log');
    expect(clojureTestMatcher.extract(log)).toEqual([
      { kind: 'test', symbol: 'test-find-first', path: 'medley/core_test.cljc', line: 10, tool: 'clojure-test', category: 'test', weight: 0.9,
        message: 'FAIL in test-find-first: expected: (= (m/find-first even? [7 3 3 2 8]) 2) actual: (not (= 7 2))', logLine: 6, related: [7, 8, 9] },
      { kind: 'test', symbol: 'test-find-first', path: 'medley/core_test.cljc', line: 11, tool: 'clojure-test', category: 'test', weight: 0.9,
        message: 'FAIL in test-find-first: expected: (nil? (m/find-first even? [7 3 3 7 3])) actual: (not (nil? 7))', logLine: 13, related: [14, 15, 16] },
    ]);
    expect(log.find((l) => l.n === 6)!.text).toBe('FAIL in (test-find-first) (core_test.cljc:10)');
  });

  it("pins an error to the repository's first frame, not the JVM's throw site, and keeps the repository's other frames", () => {
    const signals = clojureTestMatcher.extract(logLines('fixtures/recorded/clojure/lein-test-error.log'));
    const tests = signals.filter((s) => s.kind === 'test');
    expect(tests).toHaveLength(4);
    expect(tests.every((s) => s.path === 'medley/core.cljc' && s.line === 27 && s.symbol === 'test-dissoc-in')).toBe(true);
    expect(tests[0]!.message).toMatch(/actual: java\.lang\.IllegalArgumentException: Don't know how to create ISeq from: clojure\.lang\.Keyword$/);
    expect(signals.filter((s) => s.kind === 'frame' && s.logLine < 83).map((s) => [s.path, s.line, s.symbol])).toEqual([
      ['medley/core.cljc', 22, 'dissoc-in'],
      ['medley/core.cljc', 29, 'dissoc-in'],
      ['medley/core_test.cljc', 17, 'medley.core_test'],
      ['medley/core_test.cljc', 16, 'medley.core_test'],
    ]);
    expect(signals.some((s) => s.path?.includes('RT.java') || s.path?.startsWith('clojure/'))).toBe(false);
  });

  it('returns nothing for other tools', () => {
    expect(clojureTestMatcher.extract(logLines('fixtures/recorded/clojure/lein-deps.log'))).toEqual([]);
    expect(clojureTestMatcher.extract(logLines('fixtures/logs/maven-junit-assertion/log.txt'))).toEqual([]);
  });
});
