import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

// stylish (the default): a flush-left path line, then indented `  12:5  error  msg  rule-id` rows.
// Under setup-node, whose problem matcher (eslint-stylish) takes these rows, the runner prints each matched row
// behind its annotation command: `##[error]  1404:1   error    Expected indentation …  indent`.
const STYLISH_ROW = /^(?:##\[(?:error|warning)\])?\s+(\d+):(\d+)\s+(error|warning)\s+(\S.*)$/;
// unix: `/abs/a.js:12:5: msg [Error/rule]`. The bracket suffix is what tells it from gcc-style lines.
const UNIX_TAIL = / \[(Error|Warning)(?:\/([^\]\s]+))?\]$/;
const UNIX_LOC = /:(\d+):(\d+): /;
// compact: `/abs/a.js: line 12, col 5, Error - msg (rule)`.
const COMPACT = /: line (\d+), col (\d+), (Error|Warning) - (.*)$/;
const COMPACT_RULE = / \(([^()\s]+)\)$/;

type Severity = 'error' | 'warning';

function signal(
  path: string,
  line: number,
  column: number,
  severity: Severity,
  text: string,
  rule: string | undefined,
  n: number,
): Signal {
  return {
    kind: 'diagnostic',
    path,
    // ESLint reports file-level notices ("File ignored…") at 0:0: there is no line to point at.
    ...(line > 0 ? { line, column } : {}),
    // One message shape for all formats, the one compact prints, so the rule id is never lost.
    message: rule ? `${text} (${rule})` : text,
    tool: 'eslint',
    severity,
    // A file the linter could not parse (ESLint's `Parsing error: …`, sass-lint's `Fatal` rule) broke as syntax,
    // not as style: the category every compiler's parse error has.
    category: rule === 'Fatal' || /^Parsing error\b/.test(text) ? 'compile' : 'lint',
    weight: severity === 'error' ? 1.0 : 0.3,
    logLine: n,
  };
}

/**
 * Splits a stylish row's tail into message and rule: stylish pads columns with spaces, so the rule is
 * the last run of non-space after two or more spaces. Done by hand, not by regex, to stay linear.
 */
function splitRule(rest: string): [string, string | undefined] {
  const at = rest.lastIndexOf('  ');
  if (at < 0) return [rest, undefined];
  const rule = rest.slice(at).trim();
  if (rule === '' || /\s/.test(rule)) return [rest, undefined];
  return [rest.slice(0, at).trim(), rule];
}

function fromUnix(text: string, n: number): Signal | undefined {
  const tail = UNIX_TAIL.exec(text);
  if (!tail) return undefined;
  const loc = UNIX_LOC.exec(text);
  if (!loc || loc.index === 0 || loc.index > tail.index) return undefined;
  const msg = text.slice(loc.index + loc[0].length, tail.index);
  const severity = tail[1] === 'Error' ? 'error' : 'warning';
  return signal(text.slice(0, loc.index).trim(), Number(loc[1]), Number(loc[2]), severity, msg, tail[2], n);
}

function fromCompact(text: string, n: number): Signal | undefined {
  const m = COMPACT.exec(text);
  if (!m || m.index === 0) return undefined;
  const rest = m[4]!;
  const rule = COMPACT_RULE.exec(rest);
  const msg = rule ? rest.slice(0, rule.index) : rest;
  const severity = m[3] === 'Error' ? 'error' : 'warning';
  return signal(text.slice(0, m.index).trim(), Number(m[1]), Number(m[2]), severity, msg, rule?.[1], n);
}

function isPathLine(lines: readonly LogLine[], i: number): boolean {
  const text = lines[i]!.text;
  const next = lines[i + 1];
  return text !== '' && !/^\s/.test(text) && next !== undefined && STYLISH_ROW.test(next.text);
}

/** Reads ESLint's stylish (default), unix and compact formatter output. */
export const eslintMatcher: Matcher = {
  id: 'eslint',
  extract(lines) {
    const signals: Signal[] = [];
    // Rows only count under a path line, so other tools' `  3:1  error` text is not taken for ESLint's.
    let path: string | undefined;
    for (let i = 0; i < lines.length; i++) {
      const { n, text } = lines[i]!;
      const row = STYLISH_ROW.exec(text);
      if (row) {
        if (path === undefined) continue;
        const [msg, rule] = splitRule(row[4]!);
        signals.push(signal(path, Number(row[1]), Number(row[2]), row[3] as Severity, msg, rule, n));
        continue;
      }
      path = isPathLine(lines, i) ? text.trim() : undefined;
      if (path !== undefined) continue;
      const s = text.endsWith(']') ? fromUnix(text, n) : text.includes(', col ') ? fromCompact(text, n) : undefined;
      if (s) signals.push(s);
    }
    return signals;
  },
};
