import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

const MAX_LINE = 2000;
/** Lines of one failing example kept as related: the example, Expected and Got, or the exception's traceback. */
const MAX_BLOCK = 30;
// Python's doctest prints each failing example under a row of stars: the docstring's file and line, and the
// object whose docstring it is (`in statistics.median_low`), then `Failed example:` or `Exception raised:` below.
const WHERE = /^File "([^"]+)", line (\d+), in (\S+)$/;
const VERDICT = /^(?:Failed example|Exception raised):$/;
// doctest.testmod prints stars between examples; unittest's DocTestCase (nose, pytest --doctest-modules) dashes
const RULE = /^(?:\*{20,}|-{20,})$/;

/** True when log line i is a doctest example's header (the `File …` row right above `Failed example:`). */
export function isDoctestHeader(lines: readonly LogLine[], i: number): boolean {
  return WHERE.test(lines[i]?.text ?? '') && VERDICT.test(lines[i + 1]?.text ?? '');
}

/**
 * Reads Python's doctest report. The `File "…", line N, in mod.fn` row looks like a traceback frame, but it is a
 * test: the example in fn's docstring, and what it checks is fn itself. So it is a test signal naming fn, and the
 * locate stage looks for the change in fn rather than pinning the docstring's example line.
 */
export const doctestMatcher: Matcher = {
  id: 'doctest',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    // doctest runs a docstring's examples on after one fails, so the later ones fail for want of what the first
    // made (`NameError: name 'skf' is not defined`): only each docstring's first failing example is the failure.
    const seen = new Set<string>();
    for (let i = 0; i < lines.length; i++) {
      const text = lines[i]!.text;
      if (text.length > MAX_LINE || !text.startsWith('File "') || !isDoctestHeader(lines, i)) continue;
      const m = WHERE.exec(text)!;
      const related: number[] = [];
      // the example's source, then what it printed: `Expected:`/`Got:` values, or the exception's closing line
      const parts = new Map<string, string[]>();
      let part = '';
      let j = i + 1;
      for (; j < lines.length && !RULE.test(lines[j]!.text) && related.length < MAX_BLOCK; j++) {
        related.push(lines[j]!.n);
        const t = lines[j]!.text;
        if (/^\S.*:$/.test(t)) part = t.slice(0, -1);
        else if (t.trim()) parts.set(part, [...(parts.get(part) ?? []), t.trim()]);
      }
      const example = (parts.get('Failed example') ?? []).slice(0, 3).join(' ');
      const raised = parts.get('Exception raised')?.at(-1);
      const outcome = raised ?? `expected ${(parts.get('Expected') ?? ['nothing']).slice(0, 3).join(' ')}, got ${(parts.get('Got') ?? ['nothing']).slice(0, 3).join(' ')}`;
      const owner = m[3]!.split('.').pop()!;
      if (seen.has(m[3]!)) {
        i = j - 1;
        continue;
      }
      seen.add(m[3]!);
      out.push({
        kind: 'test',
        path: m[1]!,
        line: Number(m[2]),
        symbol: owner,
        message: `doctest of ${m[3]}: ${example}: ${outcome}`,
        tool: 'doctest',
        category: 'test',
        weight: 0.9,
        logLine: lines[i]!.n,
        related,
        blockEnd: lines[j - 1]!.n,
      });
      i = j - 1;
    }
    return out;
  },
};
