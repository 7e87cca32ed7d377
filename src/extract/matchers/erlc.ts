import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

const MAX_LINE = 2000;
// `src/broken.erl:9:1: syntax error before: unused`, OTP < 24 `src/x.erl:9: …`, `src/x.erl:5:1: Warning: function f/0 is unused`.
const DIAGNOSTIC = /^(\S+?\.(?:erl|hrl|yrl|xrl)):(\d+):(?:(\d+):)? (Warning: )?(.*)$/;
// OTP ≥ 24 quotes the line under the error: `%    9| unused(X) ->` and `%     | ^`.
const SNIPPET = /^%\s+\d*\|/;

/** Reads the Erlang compiler (erlc, rebar3 compile): `file.erl:9:1: message` and its quoted line. */
export const erlcMatcher: Matcher = {
  id: 'erlc',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    const seen = new Set<string>();
    for (let i = 0; i < lines.length; i++) {
      const { n, text } = lines[i]!;
      if (text.length > MAX_LINE || !text.includes('.')) continue;
      const m = DIAGNOSTIC.exec(text);
      if (!m) continue;
      const [, path, line, column, warning, message] = m;
      // rebar3 prints each error twice (its summary, then the compiler's own output): one signal.
      const key = `${path}:${line}:${column}:${message}`;
      const related: number[] = [];
      for (let j = i + 1; j < lines.length && SNIPPET.test(lines[j]!.text) && related.length < 4; j++) related.push(lines[j]!.n);
      if (seen.has(key)) {
        const first = out.find((s) => `${s.path}:${s.line}:${s.column}:${s.message}` === key);
        first?.related?.push(n, ...related);
        continue;
      }
      seen.add(key);
      const s: Signal = { kind: 'diagnostic', path: path!, line: Number(line), message: message!, tool: 'erlc',
        severity: warning ? 'warning' : 'error', category: 'compile', weight: warning ? 0.3 : 1, logLine: n, related };
      if (column) s.column = Number(column);
      out.push(s);
    }
    return out;
  },
};
