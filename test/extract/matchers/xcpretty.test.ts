import { describe, expect, it } from 'vitest';
import { xcprettyMatcher } from '../../../src/extract/matchers/xcpretty.js';
import { diagnose } from '../../../src/diagnose.js';
import { logLines } from '../../helpers/log.js';

// xcpretty's own published terminal output (MIT); see fixtures/recorded/xcpretty/SOURCE.md.
const LOG = 'fixtures/recorded/xcpretty/readme-2013-dots.log';
const T = '/Users/musalj/code/OSS/ObjectiveSugar/Example/ObjectiveSugarTests/NSNumberTests.m';

describe('xcprettyMatcher', () => {
  it("pins each failure of xcpretty's summary to the `File.m:N` under its reason; counts and verdict are restatements", () => {
    const signals = xcprettyMatcher.extract(logLines(LOG));
    expect(signals.filter((s) => !s.restatement).map((s) => [s.symbol, s.path, s.line, s.message, s.category, s.logLine, s.related])).toEqual([
      ['-upto iterates inclusively', T, 30, 'expected subject to equal 8, got 4', 'test', 4, [5]],
      ['tests plural date inflections', T, 78, 'expected subject to equal 51840, got 5184000', 'test', 7, [8]],
    ]);
    expect(signals.filter((s) => s.restatement).map((s) => s.logLine)).toEqual([2, 11, 12]);
  });

  it('quotes the failures before the count, category test (diagnose, no repository)', async () => {
    const d = await diagnose({ log: LOG });
    expect(d.category).toBe('test');
    expect(d.evidence.slice(0, 4).map((e) => [e.line, e.text])).toEqual([
      [4, 'Iterators, -upto iterates inclusively, expected subject to equal 8, got 4'],
      [5, `${T}:30`],
      [7, 'Iterators, tests plural date inflections, expected subject to equal 51840, got 5184000'],
      [8, `${T}:78`],
    ]);
  });

  it('reads no failure without its `Executed N tests, with M failures` count, nor in raw xcodebuild output', () => {
    expect(xcprettyMatcher.extract(logLines('fixtures/recorded/swiftc/swiftgtk-47-swift-build.log'))).toEqual([]);
    expect(xcprettyMatcher.extract(logLines('fixtures/recorded/scalatest/usi-139-summary.log'))).toEqual([]);
    // Raw xcodebuild prints the same count: its failures are xctest.ts's, only the count is read here.
    for (const raw of ['fixtures/recorded/xcodebuild/raw_kiwi_fail.txt', 'fixtures/recorded/xcodebuild/nimble-372-swift-test.log']) {
      expect(xcprettyMatcher.extract(logLines(raw)).every((s) => s.restatement)).toBe(true);
    }
  });
});
