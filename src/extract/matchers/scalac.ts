import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

/** Longer lines are serialized blobs, not a diagnostic: skipping them bounds the regexes. */
const MAX_LINE = 4000;
/** Lines under a diagnostic kept as related: scalac's explanation (found/required, notes), the source line, the caret. */
const MAX_RELATED = 12;
// scalac 2: `src/main/scala/Search/BinarySearch.scala:41: error: type mismatch;`.
const SCALAC = /^((?:[A-Za-z]:)?[^\s:][^:]*?\.scala):(\d+): (error|warning): (.*)$/;
// sbt's compile task: `[error] /abs/Foo.scala:6: message` (sbt 0.13) or `[error] /abs/Foo.scala:6:3: message` (sbt 1.x).
const SBT = /^\[(error|warn)\] ((?:[A-Za-z]:)?[^\s:][^:]*?\.scala):(\d+)(?::(\d+))?: (.*)$/;
const SBT_PREFIX = /^\[(?:error|warn)\] ?/;
const CARET = /^\s*\^\s*$/;
// The closing counts end the last diagnostic's block: `one error found`, `two warnings found`.
const COUNT = /^(?:\[(?:error|warn)\] )?\w+ (?:errors?|warnings?) found$/;

/**
 * Reads the Scala 2 compiler's diagnostics, printed by scalac itself (`File.scala:41: error: message`) or
 * through sbt (`[error] /abs/File.scala:6:3: message`), with the explanation, source line and caret beneath
 * as related. Errors are compile failures; warnings weigh little.
 */
export const scalacMatcher: Matcher = {
  id: 'scalac',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    for (let i = 0; i < lines.length; i++) {
      const text = lines[i]!.text;
      if (text.length > MAX_LINE || !text.includes('.scala:')) continue;
      const s = SCALAC.exec(text);
      const b = s ? null : SBT.exec(text);
      if (!s && !b) continue;
      const sbt = !!b;
      const [path, line, column, severity, message] = s
        ? [s[1]!, s[2]!, undefined, s[3]!, s[4]!]
        : [b![2]!, b![3]!, b![4], b![1] === 'warn' ? 'warning' : 'error', b![5]!];
      const related: number[] = [];
      const explanation: string[] = [];
      for (let j = i + 1; j < lines.length && related.length < MAX_RELATED; j++) {
        const raw = lines[j]!.text;
        if (sbt && !SBT_PREFIX.test(raw)) break;
        const t = sbt ? raw.replace(SBT_PREFIX, '') : raw;
        if (SCALAC.test(t) || SBT.test(raw) || COUNT.test(raw) || t.trim() === '') break;
        related.push(lines[j]!.n);
        if (CARET.test(t)) break;
        if (explanation.length < 2 && /^\s*(?:found|required)\s*:/.test(t)) explanation.push(t.trim().replace(/\s+/g, ' '));
      }
      const error = severity === 'error';
      const signal: Signal = { kind: 'diagnostic', path, line: Number(line), message: [message.trim(), ...explanation].join(' '), tool: 'scalac',
        severity: error ? 'error' : 'warning', category: 'compile', weight: error ? 1 : 0.3, logLine: lines[i]!.n, related };
      if (column) signal.column = Number(column);
      out.push(signal);
    }
    return out;
  },
};
