import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

/** Longer lines are serialized blobs, not a diagnostic: skipping them bounds the regex. */
const MAX_LINE = 4000;
/** The source line and its caret that kotlinc prints under a diagnostic. */
const MAX_EXCERPT = 2;
// The command-line compiler: `src/main/kotlin/math/Median.kt:28:12: error: type mismatch: …` (1.x and 2.x).
// The Gradle plugin's `e: file:///…kt:28:12 …` form is read by gradle.ts.
const DIAGNOSTIC = /^(\S[^:]*?\.kts?):(\d+):(\d+): (error|warning): (.+)$/;

/**
 * Reads kotlinc's diagnostics (`File.kt:line:col: error: message`, then the source line and a caret) as
 * compile errors; warnings are kept weak, so that a build failed by `-Werror` still points at the first.
 */
export const kotlincMatcher: Matcher = {
  id: 'kotlinc',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    for (let i = 0; i < lines.length; i++) {
      const text = lines[i]!.text;
      if (text.length > MAX_LINE || !text.includes('.kt')) continue;
      const d = DIAGNOSTIC.exec(text);
      if (!d) continue;
      const related: number[] = [];
      for (let j = i + 1; j < lines.length && related.length < MAX_EXCERPT; j++) {
        const t = lines[j]!.text;
        if (t.trim() === '' || DIAGNOSTIC.test(t)) break;
        related.push(lines[j]!.n);
        if (/^\s*\^+\s*$/.test(t)) break;
      }
      const error = d[4] === 'error';
      out.push({ kind: 'diagnostic', path: d[1]!, line: Number(d[2]), column: Number(d[3]), message: d[5]!.trim(), tool: 'kotlinc',
        severity: error ? 'error' : 'warning', category: 'compile', weight: error ? 1 : 0.3, logLine: lines[i]!.n, related });
    }
    return out;
  },
};
