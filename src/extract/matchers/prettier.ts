import type { Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

// sbt and others print `[warn] …` too: only trust `[warn] <path>` rows when Prettier's own banner or
// summary is somewhere in the log.
const MARKER = /^(?:Checking formatting\.\.\.|\[warn\] Code style issues|Error occurred when checking code style)/;
// One token: Prettier lists bare paths, while other tools' warnings are sentences.
const WARN_FILE = /^\[warn\] (\S+)$/;
const SUMMARY = /^\[warn\] Code style issues/;
// `[error] src/a.js: SyntaxError: Unexpected token, expected "," (5:3)`.
const SYNTAX = /^\[error\] (\S+): (\w*Error): (.*) \((\d+):(\d+)\)$/;

/** Reads `prettier --check` output: one lint diagnostic per unformatted file, plus parse errors. */
export const prettierMatcher: Matcher = {
  id: 'prettier',
  extract(lines) {
    if (!lines.some((l) => MARKER.test(l.text))) return [];
    const signals: Signal[] = [];
    // The summary is the line a person quotes; it follows the list, so patch it in afterwards.
    const pending: Signal[] = [];
    for (const { n, text } of lines) {
      if (!text.startsWith('[')) continue;
      if (SUMMARY.test(text)) {
        for (const s of pending) {
          s.message = text.slice('[warn] '.length);
          s.related = [n];
        }
        pending.length = 0;
        continue;
      }
      const file = WARN_FILE.exec(text);
      if (file) {
        const s: Signal = {
          kind: 'diagnostic',
          path: file[1]!,
          // No line: --check only says the file differs; the locator picks the changed lines of it.
          message: 'Code style issues found by prettier --check',
          tool: 'prettier',
          severity: 'error',
          category: 'lint',
          weight: 1.0,
          logLine: n,
        };
        signals.push(s);
        pending.push(s);
        continue;
      }
      const syntax = SYNTAX.exec(text);
      if (syntax) {
        signals.push({
          kind: 'diagnostic',
          path: syntax[1]!,
          line: Number(syntax[4]),
          column: Number(syntax[5]),
          message: `${syntax[2]}: ${syntax[3]}`,
          tool: 'prettier',
          severity: 'error',
          // A file Prettier cannot parse fails the format check like any unformatted file.
          category: 'lint',
          weight: 1.0,
          logLine: n,
        });
      }
    }
    return signals;
  },
};
