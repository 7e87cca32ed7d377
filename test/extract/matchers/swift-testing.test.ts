import { describe, expect, it } from 'vitest';
import { swiftTestingMatcher } from '../../../src/extract/matchers/swift-testing.js';
import { xctestMatcher } from '../../../src/extract/matchers/xctest.js';
import { logLines } from '../../helpers/log.js';

// Real `swift test` output published by xcbeautify (MIT); see fixtures/recorded/swift/SOURCE.md.
const R = 'fixtures/recorded/swift';

describe('swiftTestingMatcher', () => {
  it("pins each `✘ Test f() recorded an issue at File.swift:line:col` with the test's `failed after` line as related", () => {
    const log = logLines(`${R}/spi-swift-testing-short.log`);
    const text = (n: number) => log.find((l) => l.n === n)!.text;
    const signals = swiftTestingMatcher.extract(log);
    expect(signals.map((s) => [s.symbol, s.path, s.line, s.column, s.category])).toEqual([
      ['analyze_getPackageInfo_gitCheckout_error()', 'AnalyzeErrorTests.swift', 120, 6, 'test'],
      ['analyze_dumpPackage_missing_manifest()', 'AnalyzeErrorTests.swift', 149, 6, 'test'],
      ['analyze_updateRepository_invalidPackageCachePath()', 'AnalyzeErrorTests.swift', 92, 6, 'test'],
    ]);
    expect(signals[0]!.message).toMatch(/^Caught error: PSQLError – Generic description/);
    expect(signals[0]!.related!.map(text)).toEqual(['✘ Test analyze_getPackageInfo_gitCheckout_error() failed after 0.064 seconds with 1 issue.']);
  });

  it('reads the Swift Testing issue of a mixed run, and leaves the XCTest failure before it to xctest.ts', () => {
    const log = logLines(`${R}/mixed-xctest-swift-testing-linux.log`);
    expect(swiftTestingMatcher.extract(log).map((s) => [s.symbol, s.path, s.line, s.message])).toEqual([
      ['testFailTrueIsFalse()', 'Test.swift', 17, 'Expectation failed: true == false'],
    ]);
    expect(xctestMatcher.extract(log).map((s) => [s.symbol, s.line])).toEqual([['testForceFailure', 34]]);
  });

  it('returns nothing for other tools', () => {
    expect(swiftTestingMatcher.extract(logLines('fixtures/recorded/xcodebuild/raw_kiwi_fail.txt'))).toEqual([]);
    expect(swiftTestingMatcher.extract(logLines('fixtures/recorded/playwright/playwright-list.log'))).toEqual([]);
  });
});
