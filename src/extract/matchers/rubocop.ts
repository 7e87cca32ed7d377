import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

const MAX_LINE = 2000;
// `lib/report.rb:8:5: W: Lint/UselessAssignment: Useless assignment …` (progress, clang and emacs formatters),
// `[Correctable]` / `[Corrected]` / `[Todo]` between the severity and the cop.
const OFFENSE = /^(\S.*?):(\d+):(\d+): ([CWEFR]): (?:\[\w+\] )?([A-Z]\w+(?:\/\w+)+): (.*)$/;
// The progress and clang formatters quote the line and put carets under the offence.
const CARETS = /^\s*\^+$/;

/** Reads RuboCop offences (`file.rb:8:5: W: Lint/Cop: message`, the quoted line and carets as related). */
export const rubocopMatcher: Matcher = {
  id: 'rubocop',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    for (let i = 0; i < lines.length; i++) {
      const { n, text } = lines[i]!;
      if (text.length > MAX_LINE || !text.includes(': ')) continue;
      const m = OFFENSE.exec(text);
      if (!m) continue;
      const [, path, line, column, severity, cop, message] = m;
      const related: number[] = [];
      if (lines[i + 2] && CARETS.test(lines[i + 2]!.text)) related.push(lines[i + 1]!.n, lines[i + 2]!.n);
      // F is a file RuboCop could not parse: a syntax error, not a style question.
      const fatal = severity === 'F' || (severity === 'E' && cop === 'Lint/Syntax');
      out.push({ kind: 'diagnostic', path: path!, line: Number(line), column: Number(column), symbol: cop, message: `${cop}: ${message}`,
        tool: 'rubocop', severity: 'error', category: fatal ? 'compile' : 'lint',
        // Conventions and refactors fail the run too, but a warning or an error is more often the cause.
        weight: severity === 'C' || severity === 'R' ? 0.8 : 1, logLine: n, related });
    }
    return out;
  },
};
