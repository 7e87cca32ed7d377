import { describe, expect, it } from 'vitest';
import { jestMatcher } from '../../../src/extract/matchers/jest.js';
import { logLines } from '../../helpers/log.js';

const log = (c: string) => logLines(`fixtures/logs/${c}/log.txt`);

describe('jestMatcher', () => {
  it('reads one test signal per failing test, with the assertion location and the diff', () => {
    const signals = jestMatcher.extract(log('jest-paginate-off-by-one'));
    expect(signals).toHaveLength(2);
    expect(signals[0]).toMatchObject({
      kind: 'test',
      symbol: 'listOrders › returns the newest open orders first',
      path: 'test/orders.test.js',
      line: 17,
      column: 41,
      message: 'expect(received).toEqual(expected) // deep equality',
      category: 'test',
      weight: 0.9,
      logLine: 7,
    });
    // the message, `- Expected  - 1` / `+ Received  + 0` and the diff body, but not the code frame
    // ... then the code frame (22-28) and the test's own frame `at Object.toEqual (test/orders.test.js:17:41)` (30).
    expect(signals[0]!.related).toEqual([9, 11, 12, 14, 15, 16, 17, 18, 19, 20, 22, 23, 24, 25, 26, 27, 28, 30]);
    expect(signals[1]).toMatchObject({ symbol: 'listOrders › second page holds the rest', line: 26, logLine: 32 });
    expect(signals[1]!.related).toEqual([34, 36, 37, 38, 40, 41, 42, 43, 44, 45, 46, 48]);
  });

  it('reads a TypeError thrown in source inside an Actions log with a coloured code frame', () => {
    const signals = jestMatcher.extract(log('jest-typeerror-in-source'));
    expect(signals.map((s) => [s.symbol, s.path, s.line])).toEqual([
      ['renderNotes › groups pull requests by label', '__tests__/notes.test.js', 13],
      ['renderNotes › puts unlabelled pull requests under Other changes', '__tests__/notes.test.js', 19],
    ]);
    expect(signals[0]!.message).toBe("TypeError: Cannot read properties of undefined (reading 'map')");
  });

  it('reads a timeout, located at the test that timed out', () => {
    const [s, ...rest] = jestMatcher.extract(log('jest-retry-timeout'));
    expect(rest).toEqual([]);
    expect(s).toMatchObject({
      symbol: 'deliver › retries until the receiver answers',
      path: 'test/deliver.test.js',
      line: 18,
      message: 'thrown: "Exceeded timeout of 5000 ms for a test.',
    });
  });

  it('reads a coloured ` FAIL  file` header', () => {
    const lines = [' FAIL  test/a.test.js', '  ● a › b', '', '    Error: boom', '', '      at Object.<anonymous> (test/a.test.js:3:9)'];
    const [s] = jestMatcher.extract(lines.map((text, i) => ({ n: i + 1, text })));
    expect(s).toMatchObject({ symbol: 'a › b', path: 'test/a.test.js', line: 3, message: 'Error: boom' });
  });

  it('returns nothing for other runners', () => {
    for (const c of ['vitest-changed-default', 'mocha-changed-default', 'node-test-spec-off-by-one', 'node-test-tap-duration']) {
      expect(jestMatcher.extract(log(c))).toEqual([]);
    }
  });

  it('keeps a long snapshot diff, its code frame and the test frame in one block (a real lerna log)', () => {
    const first = jestMatcher.extract(logLines('fixtures/real-logs/javascript-jest-2537485009.log'))[0]!;
    expect(first).toMatchObject({ logLine: 2120, path: 'lerna-changed/lerna-changed.spec.ts', line: 95 });
    // From the message (2122) through the diff and the console lines inside it to `> 95 |` and the frame at 2158.
    expect(first.related![0]).toBe(2122);
    expect(first.related).toContain(2152);
    expect(first.related![first.related!.length - 1]).toBe(2158);
    // jest's frame is where its block ends: more than a block's span below the title, so said, not grown to.
    expect(first.blockEnd).toBe(2158);
  });

  it("marks the blocks of jest's closing recap as restatements (a real victory log)", () => {
    const tests = jestMatcher.extract(logLines('fixtures/real-logs/javascript-jest-2544418976.log')).filter((s) => s.symbol === 'victory-core › should export everything');
    // Printed at 2763, then again under `Summary of all failing tests` (2837).
    expect(tests.map((s) => [s.logLine, s.restatement ?? false])).toEqual([[2763, false], [2839, true]]);
  });
});
