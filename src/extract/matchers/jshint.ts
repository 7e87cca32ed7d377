import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

const MAX_LINE = 2000;
/** Findings read per log: JSHint stops at 50 per file by default (maxerr), over many files. */
const MAX_FINDINGS = 200;
// JSHint's default reporter: `index.js: line 59, col 3, 'let' is available in ES6 (use 'esversion: 6') …`,
// then a blank line and `1 error` / `12 errors`. Its codes (W104, E019) only show with --verbose: `… (W104)`.
const FINDING = /^(\S.*?\.(?:js|jsx|mjs|cjs|ts|html?|json)): line (\d+), col (\d+), (.+?)(?: \(([EWI]\d{3})\))?$/;

const ESLINT_COMPACT = /^(?:Error|Warning) - /;

/** Reads JSHint's default reporter (`file: line N, col M, message`). */
export const jshintMatcher: Matcher = {
  id: 'jshint',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    for (const { n, text } of lines) {
      if (out.length >= MAX_FINDINGS) break;
      if (text.length > MAX_LINE || !text.includes(': line ')) continue;
      const f = FINDING.exec(text);
      // ESLint's compact formatter prints the same row with `Error - ` / `Warning - ` before the message: the eslint matcher's.
      if (!f || ESLINT_COMPACT.test(f[4]!)) continue;
      const s: Signal = { kind: 'diagnostic', path: f[1]!, line: Number(f[2]), column: Number(f[3]), message: f[4]!.trim(),
        tool: 'jshint', severity: f[5]?.startsWith('I') ? 'warning' : 'error', category: 'lint', weight: 1, logLine: n };
      if (f[5]) s.symbol = f[5];
      out.push(s);
    }
    return out;
  },
};
