import type { Category, LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

const MAX_LINE = 2000;
/** Detail lines kept per check: R CMD check quotes the last 13 lines of a failing test run, and a few more. */
const MAX_BLOCK = 20;
// `* checking tests ...` then ` ERROR` on a later line, or `* checking for missing documentation entries ... WARNING`.
const CHECK = /^\* checking (.+?) \.\.\.(?: (ERROR|WARNING|NOTE))?$/;
const LATE_VERDICT = /^\s*(ERROR|WARNING|NOTE)$/;

function categoryOf(check: string): Category {
  if (/^tests\b|examples|vignettes/.test(check)) return 'test';
  if (/whether package .* can be installed|package dependencies|foreign function calls/.test(check)) return check.includes('dependencies') ? 'dependency' : 'compile';
  return 'lint';
}

/**
 * Reads R CMD check's verdicts: each `* checking … ... ERROR|WARNING` with its detail lines. Only an
 * ERROR fails a default check, so warnings and notes weigh little; testthat.ts reads the test output it quotes.
 */
export const rCmdCheckMatcher: Matcher = {
  id: 'r-cmd-check',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    for (let i = 0; i < lines.length; i++) {
      const text = lines[i]!.text;
      if (text.length > MAX_LINE || !text.startsWith('* checking ')) continue;
      const c = CHECK.exec(text);
      if (!c) continue;
      let verdict = c[2];
      let at = i;
      // `* checking tests ...` prints what it runs, then the verdict alone on a line.
      for (let j = i + 1; !verdict && j < lines.length && j <= i + 20 && !lines[j]!.text.startsWith('* '); j++) {
        const v = LATE_VERDICT.exec(lines[j]!.text);
        if (v) {
          verdict = v[1];
          at = j;
        }
      }
      if (!verdict || verdict === 'NOTE') continue;
      const related = at === i ? [] : [lines[at]!.n];
      for (let j = at + 1; j < lines.length && !lines[j]!.text.startsWith('* ') && related.length < MAX_BLOCK; j++) {
        if (lines[j]!.text.trim() !== '') related.push(lines[j]!.n);
      }
      const error = verdict === 'ERROR';
      out.push({ kind: 'diagnostic', message: `checking ${c[1]}: ${verdict}`, tool: 'r-cmd-check', severity: error ? 'error' : 'warning',
        category: categoryOf(c[1]!), weight: error ? 0.6 : 0.3, logLine: lines[i]!.n, related });
    }
    return out;
  },
};
