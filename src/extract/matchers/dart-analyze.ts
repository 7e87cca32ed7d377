import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

/** Longer lines are serialized blobs, not an analyzer issue: skipping them bounds the regexes. */
const MAX_LINE = 4000;
// `flutter analyze`: `  error • message • lib/main.dart:5:7 • code`; on a narrow terminal the line wraps after
// a ` •`, the rest indented on the next line.
const BULLET = /^\s*(error|warning|info|lint|hint) • (.+?) • (\S+?\.dart):(\d+):(\d+) • ([a-z][a-z0-9_]*)$/;
// `dart analyze`: `  error - lib/main.dart:5:7 - message - code`.
const DASH = /^\s*(error|warning|info) - (\S+?\.dart):(\d+):(\d+) - (.+) - ([a-z][a-z0-9_]*)$/;

/**
 * Reads the Dart analyzer's issues as `flutter analyze` and `dart analyze` print them, wrapped lines joined.
 * Errors are compile errors (an undefined name, a missing import); warnings, infos and lints are lint, which
 * fails the step too (`flutter analyze` exits non-zero on any issue), so they keep their location but weigh less.
 */
export const dartAnalyzeMatcher: Matcher = {
  id: 'dart-analyze',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    for (let i = 0; i < lines.length; i++) {
      let text = lines[i]!.text;
      if (text.length > MAX_LINE || !(text.includes(' • ') || text.includes(' - '))) continue;
      const related: number[] = [];
      // Join a wrapped issue: the first part ends in ` •`, the next line carries the rest.
      if (text.endsWith(' •') && i + 1 < lines.length && /^\s{4,}\S/.test(lines[i + 1]!.text)) {
        text = `${text} ${lines[i + 1]!.text.trim()}`;
        related.push(lines[i + 1]!.n);
      }
      const b = BULLET.exec(text);
      const d = b ? null : DASH.exec(text);
      if (!b && !d) continue;
      const [severity, message, path, line, column, code] = b
        ? [b[1]!, b[2]!, b[3]!, b[4]!, b[5]!, b[6]!]
        : [d![1]!, d![5]!, d![2]!, d![3]!, d![4]!, d![6]!];
      const error = severity === 'error';
      out.push({ kind: 'diagnostic', path, line: Number(line), column: Number(column), symbol: code, message: `${message.trim()} (${code})`,
        tool: 'dart-analyze', severity: error ? 'error' : 'warning', category: error ? 'compile' : 'lint', weight: error ? 1 : 0.7,
        logLine: lines[i]!.n, related });
      if (related.length) i++;
    }
    return out;
  },
};
