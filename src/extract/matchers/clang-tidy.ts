import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

const MAX_LINE = 4000;
/** Excerpt lines kept per finding: the quoted line, the carets and a fix-it. */
const MAX_EXCERPT = 4;
// `src/buffer.c:6:3: error: the result … [bugprone-not-null-terminated-result,-warnings-as-errors]`; a check
// name is `group-name` (no leading `-W`, which is the compiler's own flag).
const FINDING = /^(\S.*?):(\d+):(\d+): (error|warning): (.*) \[((?:[a-z]+(?:-[\w.]+)+|clang-diagnostic-[\w-]+))(,-warnings-as-errors)?\]$/;

/** Reads clang-tidy findings (`file:line:col: warning: message [check-name]`) with the quoted line and fix-it. */
export const clangTidyMatcher: Matcher = {
  id: 'clang-tidy',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    for (let i = 0; i < lines.length; i++) {
      const { n, text } = lines[i]!;
      if (text.length > MAX_LINE || !text.endsWith(']')) continue;
      const m = FINDING.exec(text);
      if (!m || m[6]!.startsWith('clang-diagnostic-')) continue; // the compiler's own warnings are gcc.ts's
      const related: number[] = [];
      for (let j = i + 1; j < lines.length && related.length < MAX_EXCERPT && /^\s/.test(lines[j]!.text); j++) related.push(lines[j]!.n);
      // Only a check promoted by WarningsAsErrors (or an error) fails the run; other warnings are context.
      const error = m[4] === 'error';
      out.push({ kind: 'diagnostic', path: m[1]!, line: Number(m[2]), column: Number(m[3]), symbol: m[6]!, message: `${m[5]} [${m[6]}]`,
        tool: 'clang-tidy', severity: error ? 'error' : 'warning', category: 'lint', weight: error ? 1 : 0.3, logLine: n, related });
    }
    return out;
  },
};
