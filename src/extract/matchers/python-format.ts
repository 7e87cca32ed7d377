import type { LogLine, Signal } from '../../types.js';
import { movedLine } from '../../evidence/moved-line.js';
import type { Matcher } from './matcher.js';

const MAX_LINE = 2000;
/** Hunks read per file from a --diff: the first few say where the formatting is off. */
const MAX_HUNKS_PER_FILE = 5;
/** Lines of one hunk kept as related. */
const MAX_HUNK_LINES = 12;
const BLACK_WOULD = /^would reformat (\S.*\.pyi?)$/;
const BLACK_CANNOT = /^error: cannot format (\S.*?\.pyi?): Cannot parse(?: for target version [\w.]+)?: (\d+):(\d+): (.*)$/;
const ISORT_WRONG = /^ERROR: (\S.*?\.pyi?) Imports are incorrectly sorted and\/or formatted\.$/;
// `--- pkg/x.py	2026-12-01 09:11:33 +0000` (black --diff), `--- /abs/pkg/x.py:before	2026-…` (isort --diff).
const DIFF_FILE = /^--- (\S.*?\.pyi?)(?::before)?\t/;
const HUNK = /^@@ -(\d+)(?:,\d+)? \+\d+(?:,\d+)? @@/;

/**
 * Reads Python formatters' checks: black (`would reformat x.py`, `cannot format … Cannot parse: 12:4`)
 * and isort (`ERROR: x.py Imports are incorrectly sorted`); with `--diff`, each hunk's first changed
 * line becomes a location.
 */
export const pythonFormatMatcher: Matcher = {
  id: 'python-format',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    let diffPath: string | undefined;
    let tool: 'black' | 'isort' = 'black';
    let hunks = 0;
    for (let i = 0; i < lines.length; i++) {
      const { n, text } = lines[i]!;
      if (text.length > MAX_LINE) continue;
      const w = text.startsWith('would reformat ') ? BLACK_WOULD.exec(text) : null;
      if (w) {
        out.push({ kind: 'diagnostic', path: w[1]!, message: text, tool: 'black', severity: 'error', category: 'lint', weight: 0.8, logLine: n });
        continue;
      }
      const c = text.startsWith('error: cannot format ') ? BLACK_CANNOT.exec(text) : null;
      if (c) {
        out.push({ kind: 'diagnostic', path: c[1]!, line: Number(c[2]), column: Number(c[3]) + 1, message: `Cannot parse: ${c[4]}`, tool: 'black',
          severity: 'error', category: 'compile', weight: 1, logLine: n });
        continue;
      }
      const s = text.startsWith('ERROR: ') ? ISORT_WRONG.exec(text) : null;
      if (s) {
        out.push({ kind: 'diagnostic', path: s[1]!, message: 'Imports are incorrectly sorted and/or formatted.', tool: 'isort', severity: 'error',
          category: 'lint', weight: 0.8, logLine: n });
        continue;
      }
      const f = text.startsWith('--- ') ? DIFF_FILE.exec(text) : null;
      if (f) {
        diffPath = f[1];
        tool = text.includes(':before\t') ? 'isort' : 'black';
        hunks = 0;
        continue;
      }
      const h = diffPath && text.startsWith('@@') ? HUNK.exec(text) : null;
      if (!h || hunks >= MAX_HUNKS_PER_FILE) continue;
      hunks++;
      // The hunk starts with context; the first removed or added line is where the formatting differs.
      let line = Number(h[1]);
      const related: number[] = [];
      const texts: string[] = [];
      let at: number | undefined;
      for (let j = i + 1; j < lines.length && related.length < MAX_HUNK_LINES; j++) {
        const t = lines[j]!.text;
        // black writes its verdict to stderr and the diff to stdout: a runner that merges the two can print
        // `would reformat x.py` inside a hunk. It is not a line of the hunk, which goes on after it when a
        // changed or context line follows (a blank line or the summary after it is the diff's end).
        if (t.startsWith('would reformat ')) {
          if (/^[+ -]/.test(lines[j + 1]?.text ?? '') && !/^(?:---|\+\+\+) /.test(lines[j + 1]!.text)) continue;
          break;
        }
        // A blank context line arrives as '' (its one space trimmed on the way).
        if (!/^[ +-]|^$/.test(t) || t.startsWith('--- ') || t.startsWith('+++ ')) break;
        related.push(lines[j]!.n);
        texts.push(t);
        if (at === undefined && (t.startsWith('-') || t.startsWith('+'))) at = line;
        if (!t.startsWith('+')) line++;
      }
      if (at === undefined) continue;
      // a sorter moving a line: the place is where the line stands, not where it belongs
      at = movedLine(texts.slice(texts.findIndex((t) => /^[+-]/.test(t))), at) ?? at;
      out.push({ kind: 'diagnostic', path: diffPath!, line: at, message: tool === 'isort' ? 'imports are not sorted' : 'not formatted as black would',
        tool, severity: 'error', category: 'lint', weight: 0.9, logLine: n, related });
    }
    return out;
  },
};
