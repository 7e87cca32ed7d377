import { describe, expect, it } from 'vitest';
import { karmaMatcher } from '../../../src/extract/matchers/karma.js';
import { jasmineMatcher } from '../../../src/extract/matchers/jasmine.js';
import { logLines } from '../../helpers/log.js';

// Recorded here with karma 6.4.4 + karma-jasmine in Debian's headless chromium on vercel/ms 2.1.3; see
// fixtures/recorded/karma/record.sh.
const R = 'fixtures/recorded/karma';

describe('karmaMatcher', () => {
  for (const reporter of ['progress', 'dots']) {
    it(`pins the failed expectation of the ${reporter} reporter to the spec's frame, message and stack as related`, () => {
      const log = logLines(`${R}/karma-${reporter}.log`);
      const text = (n: number) => log.find((l) => l.n === n)!.text.trim();
      const signals = karmaMatcher.extract(log);
      expect(signals.map((s) => [s.symbol, s.path, s.line, s.column, s.category, s.message])).toEqual([
        ['ms parses hours', 'spec/msSpec.js', 9, 22, 'test', 'Expected 120000 to be 7200000.'],
      ]);
      expect(text(signals[0]!.logLine)).toBe('Chrome Headless 156.0.0.0 (Linux 0.0.0) ms parses hours FAILED');
      expect(signals[0]!.related!.map(text)).toEqual(['Expected 120000 to be 7200000.', 'at <Jasmine>',
        'at UserContext.<anonymous> (spec/msSpec.js:9:22)', 'at <Jasmine>']);
    });
  }

  it('pins a thrown error where it was thrown, in the code under test', () => {
    const signals = karmaMatcher.extract(logLines(`${R}/karma-throw.log`));
    expect(signals.map((s) => [s.symbol, s.path, s.line, s.message])).toEqual([
      ['ms reads a bare number as milliseconds', 'lib/ms.js', 60, "TypeError: Cannot read properties of undefined (reading 'toLowerCase')"],
    ]);
    expect(signals[0]!.related).toHaveLength(5);
  });

  it("returns nothing for other tools; Jasmine's own `Failures:` report is jasmine.ts's", () => {
    expect(karmaMatcher.extract(logLines('fixtures/recorded/jasmine/jasmine.log'))).toEqual([]);
    expect(karmaMatcher.extract(logLines('fixtures/recorded/playwright/playwright-list.log'))).toEqual([]);
    expect(jasmineMatcher.extract(logLines(`${R}/karma-progress.log`))).toEqual([]);
  });
});
