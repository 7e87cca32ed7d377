import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

const MAX_LINE = 2000;
/** Failures read per summary: xcpretty lists every one; the first ones say enough. */
const MAX_FAILURES = 50;
// xcpretty's test summary (before `Executed N tests, with M failures`) lists each failure as its reason, then the
// assertion's place alone on the next line: `Suite, test, reason` / `/abs/FooTests.m:30` (≤ 0.1), or
// `  test, reason` / `  /abs/FooTests.swift:30` under the suite's name (0.2+, then the snippet in ``` fences).
const PLACE = /^\s*(\S.*?\.(?:swift|m|mm|c|cc|cpp|cxx|h|hpp)):(\d+)$/;
const EXECUTED = /^\s*Executed \d+ tests?, with [1-9]\d* failures? /;
const FENCE = /^\s*```/;
// The progress line of the test format (`....F.F...`) and xcodebuild's verdict restate the failures.
const DOTS = /^[.FP*]*F[.FP*]*$/;
/** Shorter dot lines are too easily another tool's: xcpretty prints one character per test. */
const DOTS_MIN = 3;
/** Lines of an assertion's snippet kept as related: xcpretty prints the failing line between its fences. */
const MAX_SNIPPET = 6;
const VERDICT = /^\*\* TEST FAILED \*\*$/;

/**
 * Reads xcpretty's test summary: each failure's reason and the `File.m:N` line under it, pinned there. The
 * `Executed N tests, with M failures` count, the dots line and `** TEST FAILED **` are restatements.
 * Only a log that has the count is read, so a lone `path:N` line elsewhere is not taken for a failure.
 */
export const xcprettyMatcher: Matcher = {
  id: 'xcpretty',
  extract(lines: readonly LogLine[]): Signal[] {
    if (!lines.some((l) => l.text.length <= MAX_LINE && EXECUTED.test(l.text))) return [];
    const out: Signal[] = [];
    let failures = 0;
    const note = (n: number, text: string, weight: number): Signal =>
      ({ kind: 'test', message: text.trim(), tool: 'xcpretty', category: 'test', severity: 'error', weight, logLine: n, restatement: true });
    for (let i = 0; i < lines.length; i++) {
      const { n, text } = lines[i]!;
      if (text.length > MAX_LINE) continue;
      if (EXECUTED.test(text)) {
        out.push(note(n, text, 0.3));
        continue;
      }
      if (VERDICT.test(text) || (text.length >= DOTS_MIN && DOTS.test(text))) {
        out.push(note(n, text, 0.2));
        continue;
      }
      const p = PLACE.exec(text);
      const prev = lines[i - 1];
      if (!p || !prev || prev.text.trim() === '' || PLACE.test(prev.text) || FENCE.test(prev.text) || failures >= MAX_FAILURES) continue;
      const indented = /^\s/.test(prev.text);
      const parts = prev.text.trim().split(', ');
      // 0.1: `Suite, test, reason`. 0.2+: `  test, reason` under the suite's own line.
      const [suite, test, reason] = indented
        ? [lines[i - 2] && !/^\s/.test(lines[i - 2]!.text) ? lines[i - 2]!.text.trim() : undefined, parts[0]!, parts.slice(1).join(', ')]
        : parts.length > 2 ? [parts[0], parts[1]!, parts.slice(2).join(', ')] : [undefined, parts[0]!, parts.slice(1).join(', ')];
      const related = [n];
      if (indented && suite) related.push(lines[i - 2]!.n);
      // 0.2+ prints the assertion's source in ``` fences under its place.
      if (FENCE.test(lines[i + 1]?.text ?? '')) {
        for (let j = i + 1; j < lines.length && j <= i + MAX_SNIPPET; j++) {
          related.push(lines[j]!.n);
          if (j > i + 1 && FENCE.test(lines[j]!.text)) break;
        }
      }
      out.push({ kind: 'test', symbol: test, path: p[1]!, line: Number(p[2]), message: reason || test, tool: 'xcpretty', category: 'test',
        severity: 'error', weight: 0.9, logLine: prev.n, related: related.sort((a, b) => a - b) });
      failures++;
    }
    return out;
  },
};
