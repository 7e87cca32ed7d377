import { describe, expect, it } from 'vitest';
import { vitestMatcher } from '../../../src/extract/matchers/vitest.js';
import { logLines } from '../../helpers/log.js';

const log = (c: string) => logLines(`fixtures/logs/${c}/log.txt`);

describe('vitestMatcher', () => {
  it('reads each FAIL block: title, AssertionError, diff lines and the pointer into the test', () => {
    const signals = vitestMatcher.extract(log('vitest-changed-default'));
    expect(signals).toHaveLength(2);
    expect(signals[0]).toMatchObject({
      kind: 'test',
      symbol: 'cart summary > lists each line and the total',
      path: 'test/cart.test.js',
      line: 9,
      column: 27,
      category: 'test',
      weight: 0.9,
      logLine: 10,
    });
    expect(signals[0]!.message).toMatch(/^AssertionError: expected \[ '1 x mug: 8,50/);
    // message, `- Expected`, `+ Received`, and the diff up to the closing bracket
    expect(signals[0]!.related).toEqual([11, 13, 14, 16, 17, 18, 19, 20, 21, 22, 23]);
    expect(signals[1]).toMatchObject({ symbol: 'cart summary > shows an empty cart as zero', line: 13, logLine: 35 });
  });

  it('reads a coloured Actions log', () => {
    const signals = vitestMatcher.extract(log('vitest-wrong-operator'));
    expect(signals).toHaveLength(1);
    expect(signals[0]).toMatchObject({
      symbol: 'restockOrder > orders every item at or below its reorder point',
      path: 'test/report.test.js',
      line: 13,
      logLine: 44,
    });
    expect(signals[0]!.related).toContain(51);
  });

  it('turns the other pointers of a failed hook into frames, source first', () => {
    const signals = vitestMatcher.extract(log('vitest-beforeall-hook'));
    expect(signals[0]).toMatchObject({
      kind: 'test',
      symbol: 'Store',
      path: 'test/store.test.js',
      line: 8,
      message: "TypeError: Cannot read properties of undefined (reading 'includes')",
    });
    expect(signals.slice(1).map((s) => [s.kind, s.symbol, s.path, s.line, s.weight])).toEqual([
      ['frame', 'Store.insert', 'src/store.js', 9, 0.6],
      ['frame', 'seededStore', 'src/seed.js', 12, 0.6],
    ]);
  });

  it('returns nothing for other runners, including jest', () => {
    for (const c of ['jest-paginate-off-by-one', 'jest-typeerror-in-source', 'mocha-changed-default', 'node-test-tap-duration']) {
      expect(vitestMatcher.extract(log(c))).toEqual([]);
    }
  });
});
