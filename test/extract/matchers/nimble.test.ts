import { describe, expect, it } from 'vitest';
import { xctestMatcher } from '../../../src/extract/matchers/xctest.js';
import { diagnose } from '../../../src/diagnose.js';
import { logLines } from '../../helpers/log.js';

// Real `swift test` output of a Nimble expectation failing, pasted in Quick/Nimble#372; see
// fixtures/recorded/xcodebuild/SOURCE.md. Nimble reports through XCTest, so xctest.ts reads it: no matcher of its own.
const LOG = 'fixtures/recorded/xcodebuild/nimble-372-swift-test.log';

describe('Nimble failures (read by xctestMatcher)', () => {
  it("pins Nimble's `expected to equal <2>, got <1>` to the expectation's line, with the test's `failed` line as related", () => {
    const signals = xctestMatcher.extract(logLines(LOG));
    expect(signals.map((s) => [s.symbol, s.path, s.line, s.message, s.category, s.logLine, s.related])).toEqual([
      ['testNimble', '/Users/ikesyo/Desktop/Nimble367Test/Tests/Nimble367Tests/test.swift', 7, 'expected to equal <2>, got <1>', 'test', 10, [12]],
    ]);
  });

  it('quotes the failure first, category test (diagnose, no repository)', async () => {
    const d = await diagnose({ log: LOG });
    expect(d.category).toBe('test');
    expect(d.evidence.slice(0, 2).map((e) => [e.line, e.text])).toEqual([
      [10, '/Users/ikesyo/Desktop/Nimble367Test/Tests/Nimble367Tests/test.swift:7: error: -[Nimble367Tests.Test testNimble] : expected to equal <2>, got <1>'],
      [12, "Test Case '-[Nimble367Tests.Test testNimble]' failed (0.004 seconds)."],
    ]);
  });
});
