import { describe, expect, it } from 'vitest';
import { playwrightMatcher } from '../../../src/extract/matchers/playwright.js';
import { jestMatcher } from '../../../src/extract/matchers/jest.js';
import { logLines } from '../../helpers/log.js';

// Recorded here with @playwright/test 1.65.1 on vercel/ms 2.1.3 with line 81 broken; see fixtures/recorded/playwright/record.sh.
const R = 'fixtures/recorded/playwright';
const SPEC = '/home/runner/work/ms/ms/tests/ms.spec.js';

describe('playwrightMatcher', () => {
  for (const reporter of ['list', 'line', 'dot', 'github']) {
    it(`pins the failed expect of the ${reporter} reporter to its line in the spec, with the diff and code frame as related`, () => {
      const log = logLines(`${R}/playwright-${reporter}.log`);
      const text = (n: number) => log.find((l) => l.n === n)!.text.trim();
      const signals = playwrightMatcher.extract(log);
      expect(signals.map((s) => [s.symbol, s.path, s.line, s.column, s.category, s.message])).toEqual([
        ['ms › parses hours', SPEC, 11, 22, 'test', 'Error: expect(received).toBe(expected) // Object.is equality'],
      ]);
      expect(text(signals[0]!.logLine)).toMatch(/^1\) tests\/ms\.spec\.js:10:3 › ms › parses hours ─+$/);
      const related = signals[0]!.related!.map(text);
      expect(related).toContain('Received: 120000');
      expect(related).toContain("> 11 |     expect(ms('2h')).toBe(7200000);");
      expect(related).toContain(`at ${SPEC}:11:22`);
      // Nothing after the block: not the `Error Context:` attachment, not the `1 failed` summary.
      expect(related.some((t) => /Error Context|failed|passed/.test(t))).toBe(false);
      expect(related.length).toBeLessThan(20);
    });
  }

  it('reads a `[project] › ` header and pins a thrown error where it was thrown, from the first attempt of a retried test', () => {
    const log = logLines(`${R}/playwright-throw-projects.log`);
    const text = (n: number) => log.find((l) => l.n === n)!.text.trim();
    const signals = playwrightMatcher.extract(log);
    expect(signals.map((s) => [s.symbol, s.path, s.line, s.message])).toEqual([
      ['ms › reads a bare number as milliseconds', '/home/runner/work/ms/ms/lib/ms.js', 60, "TypeError: Cannot read properties of undefined (reading 'toLowerCase')"],
    ]);
    const related = signals[0]!.related!.map(text);
    expect(related.filter((t) => t.startsWith('TypeError'))).toHaveLength(1);
    expect(related.at(-1)).toBe('at /home/runner/work/ms/ms/tests/ms.spec.js:15:12');
  });

  it('returns nothing for other tools, and jest leaves Playwright blocks alone', () => {
    expect(playwrightMatcher.extract(logLines('fixtures/logs/jest-paginate-off-by-one/log.txt'))).toEqual([]);
    expect(playwrightMatcher.extract(logLines('fixtures/recorded/jasmine/jasmine.log'))).toEqual([]);
    expect(jestMatcher.extract(logLines(`${R}/playwright-list.log`))).toEqual([]);
  });
});
