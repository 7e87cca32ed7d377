import { describe, expect, it } from 'vitest';
import { htmlprooferMatcher } from '../../../src/extract/matchers/htmlproofer.js';
import { logLines } from '../../helpers/log.js';

describe('htmlprooferMatcher', () => {
  it("reads HTML-Proofer 3's `- page` / `*  … (line N)` report with the quoted tag", () => {
    const log = logLines('fixtures/recorded/link-check/htmlproofer.log');
    expect(htmlprooferMatcher.extract(log)).toEqual([{ kind: 'diagnostic', path: './spec/b518.html', line: 11, symbol: 'x479.html',
      message: 'internally linking to x479.html, which does not exist', tool: 'htmlproofer', severity: 'error', category: 'lint',
      weight: 0.8, logLine: 8, related: [7, 9] }]);
    expect(log.find((l) => l.n === 9)!.text).toContain('<link rel="PREVIOUS" title="Contributors" href="x479.html">');
  });

  it("reads HTML-Proofer 5's `* At page:N:` blocks under each check (published output)", () => {
    const signals = htmlprooferMatcher.extract(logLines('fixtures/recorded/link-check/htmlproofer-5-published.log'));
    expect(signals).toHaveLength(12);
    expect(signals.at(-1)).toEqual({ kind: 'diagnostic', path: 'spec/html-proofer/fixtures/sorting/kitchen_sinkish.html', line: 24,
      symbol: 'nowhere.fooof', message: 'Links > Internal: internally linking to nowhere.fooof, which does not exist', tool: 'htmlproofer',
      severity: 'error', category: 'lint', weight: 0.8, logLine: 63, related: [65] });
    expect(signals[0]).toMatchObject({ path: 'spec/html-proofer/fixtures/sorting/kitchen_sinkish.html', message: 'Favicon: no favicon provided' });
    expect(signals[0]!.line).toBeUndefined();
  });

  it('returns nothing for other tools', () => {
    expect(htmlprooferMatcher.extract(logLines('fixtures/recorded/link-check/linkchecker.log'))).toEqual([]);
    expect(htmlprooferMatcher.extract(logLines('fixtures/recorded/web/markdown-link-check.log'))).toEqual([]);
  });
});
