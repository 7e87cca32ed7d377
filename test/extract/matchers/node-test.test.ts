import { describe, expect, it } from 'vitest';
import { nodeTestMatcher } from '../../../src/extract/matchers/node-test.js';
import { logLines } from '../../helpers/log.js';

const log = (c: string) => logLines(`fixtures/logs/${c}/log.txt`);
const root = (c: string) => `/home/runner/work/${c}/${c}`;

describe('nodeTestMatcher', () => {
  it('reads the spec reporter once per failing test, with the suite in the title', () => {
    const c = 'node-test-spec-off-by-one';
    const signals = nodeTestMatcher.extract(log(c));
    expect(signals).toHaveLength(1);
    expect(signals[0]).toMatchObject({
      kind: 'test',
      symbol: 'planRequests > splits a long list into full requests',
      path: `${root(c)}/test/notify.test.js`,
      line: 14,
      column: 12,
      message: 'AssertionError [ERR_ASSERTION]: Expected values to be strictly deep-equal:',
      category: 'test',
      weight: 0.9,
      logLine: 3,
    });
    // `+ actual - expected` and the array diff, up to the first frame
    expect(signals[0]!.related).toEqual([4, 5, 7, 8, 9, 10, 11]);
  });

  it('reads a TypeError from an Actions log at the test that called into the source', () => {
    const c = 'node-test-typeerror-in-source';
    const signals = nodeTestMatcher.extract(log(c));
    expect(signals.map((s) => [s.symbol, s.path, s.line])).toEqual([
      ['normalises emails', `${root(c)}/test/import.test.js`, 11],
      ['marks admins', `${root(c)}/test/import.test.js`, 15],
    ]);
    expect(signals[0]!.message).toBe("TypeError [Error]: Cannot read properties of undefined (reading 'toLowerCase')");
  });

  it('reads the TAP reporter: not ok, YAML error, expected/actual and the stack', () => {
    const c = 'node-test-tap-duration';
    const signals = nodeTestMatcher.extract(log(c));
    const tests = signals.filter((s) => s.kind === 'test');
    expect(tests).toHaveLength(1);
    expect(tests[0]).toMatchObject({
      symbol: 'reads compound timeouts',
      path: `${root(c)}/test/jobs.test.js`,
      line: 12,
      message: 'Expected values to be strictly equal:',
      logLine: 8,
    });
    // `+ actual - expected`, `+ 1800000`, `- 5400000`, `expected: 5400000`, `actual: 1800000`
    expect(tests[0]!.related).toEqual([14, 15, 17, 18, 21, 22]);
    const frames = signals.filter((s) => s.kind === 'frame');
    expect(frames[0]).toMatchObject({ symbol: 'TestContext.<anonymous>', line: 12, weight: 0.6, logLine: 25 });
    expect(frames.slice(1).every((f) => f.weight === 0.05)).toBe(true);
  });

  it('skips TAP parents whose only failure is their subtests', () => {
    const text = [
      '# Subtest: outer',
      '    # Subtest: inner',
      '    not ok 1 - inner',
      '      ---',
      "      location: '/w/t.test.js:3:5'",
      "      error: 'boom'",
      '      ...',
      'not ok 1 - outer',
      '  ---',
      "  failureType: 'subtestsFailed'",
      "  error: '1 subtest failed'",
      '  ...',
    ];
    const signals = nodeTestMatcher.extract(text.map((t, i) => ({ n: i + 1, text: t })));
    expect(signals).toEqual([
      expect.objectContaining({ symbol: 'outer > inner', message: 'boom', path: '/w/t.test.js', line: 3 }),
    ]);
  });

  it('returns nothing for other runners', () => {
    for (const c of ['jest-paginate-off-by-one', 'vitest-beforeall-hook', 'mocha-deep-equal-merge']) {
      expect(nodeTestMatcher.extract(log(c))).toEqual([]);
    }
  });
});
