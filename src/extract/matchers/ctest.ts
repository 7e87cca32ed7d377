import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

const MAX_LINE = 2000;
/** Failed tests listed per run: the summary of a broken build can list thousands; the first ones say enough. */
const MAX_TESTS = 100;
// `2/5 Test #2: Split.EmptyFieldsAreKept .........***Failed    0.00 sec` (also ***Exception: SegFault, ***Timeout, Not Run).
const RESULT = /^\s*\d+\/\d+ Test +#(\d+): (\S+) \.*\s*(\*\*\*\S.*?|Exception: .*?|Not Run)\s+[\d.]+ sec$/;
const SUMMARY_START = /^The following tests FAILED:$/;
// `	  2 - Split.EmptyFieldsAreKept (Failed)`
const SUMMARY_ENTRY = /^\s+(\d+) - (\S+) \((.+)\)$/;

/**
 * Reads CTest's verdicts: the `Test #N: name ***Failed` lines and the `The following tests FAILED:` list.
 * CTest only knows names; the test's own output (GoogleTest, a sanitizer) locates it, so these weigh little.
 */
export const ctestMatcher: Matcher = {
  id: 'ctest',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    const byName = new Map<string, Signal>();
    let inSummary = false;
    for (const l of lines) {
      const text = l.text;
      if (text.length > MAX_LINE) continue;
      if (SUMMARY_START.test(text)) {
        inSummary = true;
        continue;
      }
      const m = inSummary ? SUMMARY_ENTRY.exec(text) : RESULT.exec(text);
      if (!m) {
        if (inSummary && text.trim() !== '') inSummary = false;
        continue;
      }
      const name = m[2]!;
      const known = byName.get(name);
      if (known) {
        known.related!.push(l.n);
        continue;
      }
      if (byName.size >= MAX_TESTS) continue;
      const verdict = m[3]!.replace(/^\*\*\*/, '');
      const s: Signal = { kind: 'test', symbol: name, message: `${name}: ${verdict}`, tool: 'ctest', category: 'test', weight: 0.5, logLine: l.n, related: [] };
      byName.set(name, s);
      out.push(s);
    }
    return out;
  },
};
