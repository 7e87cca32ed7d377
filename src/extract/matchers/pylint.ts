import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

const MAX_LINE = 2000;
// `pkg/report.py:11:29: E0602: Undefined variable 'totl' (undefined-variable)` (pylint ≥ 2 default format).
const MESSAGE = /^(\S.*?\.pyi?):(\d+):(\d+): ([CRWEFI])(\d{4}): (.*) \(([\w-]+)\)$/;
// Fatal (F) and error (E) messages are bugs pylint is sure of; conventions and refactors are style.
const WEIGHT: Record<string, number> = { F: 1, E: 1, W: 0.8, R: 0.6, C: 0.6, I: 0.2 };
const MODULE_HEADER = /^\*{5,} Module \S+$/;

/** Reads pylint messages (`file.py:12:4: W0612: message (symbol)`). */
export const pylintMatcher: Matcher = {
  id: 'pylint',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    // pylint heads each module's messages with `************* Module pkg.x`: the first message's block starts there.
    let moduleHeader: number | undefined;
    for (const { n, text } of lines) {
      if (text.length > MAX_LINE) continue;
      if (MODULE_HEADER.test(text)) {
        moduleHeader = n;
        continue;
      }
      if (!text.includes(': ')) continue;
      const m = MESSAGE.exec(text);
      if (!m) continue;
      const related = moduleHeader !== undefined ? { related: [moduleHeader] } : {};
      moduleHeader = undefined;
      const [, path, line, column, kind, code, message, symbol] = m;
      out.push({ kind: 'diagnostic', path: path!, line: Number(line), column: Number(column) + 1, symbol: symbol!,
        message: `${kind}${code} ${message} (${symbol})`, tool: 'pylint', severity: kind === 'I' ? 'warning' : 'error',
        // F0001 (no such file) and E0401 (import-error) are a broken environment as often as a broken import.
        category: kind === 'F' && code === '0001' ? 'compile' : 'lint', weight: WEIGHT[kind!] ?? 0.6, logLine: n, ...related });
    }
    return out;
  },
};
