import { describe, expect, it } from 'vitest';
import { lycheeMatcher } from '../../../src/extract/matchers/lychee.js';
import { diagnose } from '../../../src/diagnose.js';
import { logLines } from '../../helpers/log.js';

// Real lychee output pasted in public issue threads; see fixtures/recorded/lychee/SOURCE.md.
const R = 'fixtures/recorded/lychee';

describe('lycheeMatcher', () => {
  it("reads the terminal report's `[file]:` section, the progress line of each link as related, the count as a restatement", () => {
    const signals = lycheeMatcher.extract(logLines(`${R}/lychee-733-cli.log`));
    const links = signals.filter((s) => !s.restatement);
    expect(links.map((s) => [s.path, s.line, s.symbol, s.category, s.logLine, s.related])).toEqual([
      ['work/ok.txt', undefined, 'https://catboost.ai/', 'lint', 8, [7, 2]],
      ['work/ok.txt', undefined, 'https://catboost.ai/en/docs/concepts/python-reference_datasets_msrank', 'lint', 9, [7, 3]],
    ]);
    expect(links[0]!.message).toBe('broken link https://catboost.ai/ [403]: Network error: Forbidden');
    expect(signals.filter((s) => s.restatement).map((s) => s.logLine)).toEqual([11]);
  });

  it('quotes the broken links, not the counts (diagnose, no repository)', async () => {
    const d = await diagnose({ log: `${R}/lychee-733-cli.log` });
    expect(d.category).toBe('lint');
    const quoted = d.evidence.map((e) => e.line);
    expect(quoted).toEqual(expect.arrayContaining([7, 8, 9]));
    expect(quoted).not.toContain(11);
  });

  it("reads lychee-action's Markdown summary: `### Errors in file`, then `* [404] [url](url) | reason`", async () => {
    const signals = lycheeMatcher.extract(logLines(`${R}/filecoin-docs-2460-action.log`));
    expect(signals.filter((s) => !s.restatement).map((s) => [s.path, s.symbol, s.logLine])).toEqual([
      ['builder-cookbook/data-storage/retrieve-data.md', 'https://saturn.tech/', 27],
      ['smart-contracts/fundamentals/the-fvm.md', 'https://saturn.tech/', 31],
      ['basics/how-storage-works/filecoin-plus.md', 'https://www.fidl.tech/apply-for-datacap', 35],
    ]);
    expect(signals.find((s) => s.logLine === 35)!.message).toBe('broken link https://www.fidl.tech/apply-for-datacap [404]: Failed: Network error: Not Found');
    // `| 🚫 Errors | 21 |` restates them.
    expect(signals.filter((s) => s.restatement).map((s) => s.logLine)).toEqual([21]);
    const d = await diagnose({ log: `${R}/filecoin-docs-2460-action.log` });
    expect(d.category).toBe('lint');
    expect(d.evidence.slice(0, 2).map((e) => [e.line, e.text])).toEqual([
      [25, '### Errors in builder-cookbook/data-storage/retrieve-data.md'],
      [27, 'Error: R] [https://saturn.tech/](https://saturn.tech/) | Cached: Error (cached)'],
    ]);
  });

  it("reads lychee 0.15+'s indented `[404] url | Rejected status code …` under its input", () => {
    const signals = lycheeMatcher.extract(logLines(`${R}/lychee-1727-compact.log`));
    expect(signals.map((s) => [s.path, s.symbol, s.logLine, s.related, !!s.restatement])).toEqual([
      ['urls', 'https://lodash.com/docs/latest#get', 2, [1], false],
      [undefined, undefined, 4, undefined, true],
    ]);
    expect(signals[0]!.message).toBe('broken link https://lodash.com/docs/latest#get [404]: Rejected status code (this depends on your "accept" configuration): Not Found');
  });

  it('returns nothing for other tools', () => {
    expect(lycheeMatcher.extract(logLines('fixtures/recorded/link-check/linkchecker.log'))).toEqual([]);
    expect(lycheeMatcher.extract(logLines('fixtures/recorded/link-check/htmlproofer.log'))).toEqual([]);
    expect(lycheeMatcher.extract(logLines('fixtures/recorded/scalatest/usi-139-summary.log'))).toEqual([]);
  });
});
