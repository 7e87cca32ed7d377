import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

const MAX_LINE = 2000;
// `path.py:12: error: msg  [code]`, with `:5` after the line under --show-column-numbers. The path has no
// colon (mypy prints it relative or absolute POSIX), which keeps the match anchored and linear.
const DIAGNOSTIC = /^([^\s:][^:]*\.pyi?):(\d+):(?:(\d+):)? (error|warning|note): (.*)$/;
// A missing package or stub is a dependency problem, not a type error in the PR's code.
const IMPORT_CODE = /\s\s\[(?:import|import-not-found|import-untyped)\]$/;

/** Reads mypy diagnostics (`path.py:12[:5]: error: msg  [code]`); notes attach to the error they explain. */
export const mypyMatcher: Matcher = {
  id: 'mypy',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    let last: Signal | null = null;
    for (const { n, text } of lines) {
      if (text.length > MAX_LINE || !text.includes(': ')) continue;
      const m = DIAGNOSTIC.exec(text);
      if (!m) continue;
      const [, path, line, column, level, message] = m;
      if (level === 'note') {
        // A note right after an error on the same file elaborates it ("Revealed type", "Possible overload").
        if (last && last.path === path) (last.related ??= []).push(n);
        continue;
      }
      const warning = level === 'warning';
      const signal: Signal = {
        kind: 'diagnostic',
        path: path!,
        line: Number(line),
        message: message!,
        tool: 'mypy',
        severity: warning ? 'warning' : 'error',
        category: IMPORT_CODE.test(message!) ? 'dependency' : 'compile',
        weight: warning ? 0.3 : 1,
        logLine: n,
      };
      if (column) signal.column = Number(column);
      out.push(signal);
      last = signal;
    }
    return out;
  },
};
