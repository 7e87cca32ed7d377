import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

const MAX_LINE = 2000;
// markdownlint-cli: `docs/guide.md:8:1 error MD004/ul-style Unordered list style [Expected: asterisk; Actual: plus]`
// (older versions and markdownlint-cli2 print no `error`; cli2 may print `warning`).
const RULE = /^(\S.*?\.(?:md|markdown|mdx)):(\d+)(?::(\d+))? (?:(error|warning) )?(MD\d{3})((?:\/[\w-]+)+) (.*)$/;

/** Reads markdownlint findings (`file.md:8:1 error MD004/ul-style message`). */
export const markdownlintMatcher: Matcher = {
  id: 'markdownlint',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    for (const { n, text } of lines) {
      if (text.length > MAX_LINE || !text.includes(' MD')) continue;
      const m = RULE.exec(text);
      if (!m) continue;
      const [, path, line, column, severity, code, names, message] = m;
      const s: Signal = { kind: 'diagnostic', path: path!, line: Number(line), symbol: `${code}${names}`, message: `${code}${names} ${message}`,
        tool: 'markdownlint', severity: severity === 'warning' ? 'warning' : 'error', category: 'lint',
        weight: severity === 'warning' ? 0.3 : 0.9, logLine: n };
      if (column) s.column = Number(column);
      out.push(s);
    }
    return out;
  },
};
