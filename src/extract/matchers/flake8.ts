import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

const MAX_LINE = 2000;
// flake8's default format and ruff's concise one are the same: `path.py:12:5: F401 msg` (ruff adds `[*]`
// before fixable messages). The path cannot hold a colon, which keeps the match anchored and linear.
const DIAGNOSTIC = /^([^\s:][^:]*\.pyi?):(\d+):(\d+): ([A-Z]{1,4}\d{1,4}) (.*)$/;
// Pyflakes names the offending identifier in quotes; the locator can check it is really at the line.
const NAMED = /^F(?:401|811|821|822|823|841)$/;
const QUOTED = /['`]([\w.]+)['`]/;

/** Reads flake8 and ruff (concise) lint lines: `path.py:12:5: F401 'os' imported but unused`. */
export const flake8Matcher: Matcher = {
  id: 'flake8',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    for (const { n, text } of lines) {
      if (text.length > MAX_LINE || !text.includes(': ')) continue;
      const m = DIAGNOSTIC.exec(text);
      if (!m) continue;
      const [, path, line, column, code, message] = m;
      // pycodestyle's W codes are warnings by its own naming; everything else fails the lint job.
      const warning = code!.startsWith('W');
      const signal: Signal = {
        kind: 'diagnostic',
        path: path!,
        line: Number(line),
        column: Number(column),
        message: `${code} ${message}`,
        tool: message!.startsWith('[*] ') ? 'ruff' : 'flake8',
        severity: warning ? 'warning' : 'error',
        category: 'lint',
        weight: warning ? 0.3 : 1,
        logLine: n,
      };
      const name = NAMED.test(code!) ? QUOTED.exec(message!) : null;
      if (name) signal.symbol = name[1];
      out.push(signal);
    }
    return out;
  },
};
