import type { Category, LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

// Plain javac (and Gradle, which passes javac's output through): `path/X.java:12: error: msg`. Gradle 4's
// plain console glues the task name in front (`:compileJava/home/…/X.java:12: error:`), hence the prefix.
const PLAIN = /^(?::[\w:-]+(?=\/))?((?:[A-Za-z]:)?[^\s:][^:]*\.java):(\d+): (error|warning): (.*)$/;
// maven-compiler-plugin: `[ERROR] /abs/X.java:[12,5] msg` (older plugins repeat `error:` in the message).
const MAVEN = /^\[(ERROR|WARNING)\] ((?:[A-Za-z]:)?[^\s:][^:]*\.java):\[(\d+),(\d+)\] (?:(error|warning): )?(.*)$/;
// javac prints a lint warning with its key first (`[deprecation] X in p has been deprecated`, `[unchecked]`,
// `[rawtypes]`); maven-compiler-plugin 2.x prints every compiler message at [ERROR] once compilation fails,
// so such a line is still a warning. Only `-Werror` makes warnings the cause, and javac then says so.
const LINT_KEY = /^\[[a-z][a-z-]*\] /;
const WERROR = /warnings found and -Werror specified/;
// javac's detail lines under a diagnostic: `  symbol:   …`, `  location: …`, `  required: …` ...
const DETAIL = /^(?:\[(?:ERROR|WARNING)\] )?\s{2,}(symbol|location|required|found|reason|both|where)\b/;
const CARET = /^\s*\^\s*$/;
const MISSING_PACKAGE = /^package ([\w.]+) does not exist$/;
// `cannot access X` + `class file for X not found`: a type from a jar that is not on the classpath.
const CLASS_FILE_NOT_FOUND = /class file for [\w.$]+ not found/;

/** Reads javac diagnostics, plain or as printed through Maven (`[ERROR] X.java:[12,5]`) and Gradle. */
export const javacMatcher: Matcher = {
  id: 'javac',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    // Maven prints every compiler error twice (COMPILATION ERROR block, then the goal failure): one signal each.
    const seen = new Map<string, Signal>();
    const werror = lines.some((l) => WERROR.test(l.text));
    for (let i = 0; i < lines.length; i++) {
      const text = lines[i]!.text;
      if (!text.includes('.java:')) continue;
      let path: string;
      let line: number;
      let column: number | undefined;
      let severity: 'error' | 'warning';
      let message: string;
      const m = MAVEN.exec(text);
      if (m) {
        message = m[6]!.trim();
        severity = m[1] === 'ERROR' && m[5] !== 'warning' && (werror || !LINT_KEY.test(message)) ? 'error' : 'warning';
        path = m[2]!;
        line = Number(m[3]);
        column = Number(m[4]);
      } else {
        const p = PLAIN.exec(text);
        if (!p) continue;
        path = p[1]!;
        line = Number(p[2]);
        severity = p[3] as 'error' | 'warning';
        message = p[4]!.trim();
      }
      const related: number[] = [];
      let j = i + 1;
      if (!m && j + 1 < lines.length && CARET.test(lines[j + 1]!.text)) {
        // The code line is a quote of the source, not evidence; the caret gives the column.
        column = lines[j + 1]!.text.indexOf('^') + 1;
        j += 2;
      }
      for (; j < lines.length && j < i + 8 && DETAIL.test(lines[j]!.text); j++) related.push(lines[j]!.n);
      const key = `${path}:${line}:${column ?? ''}:${message}`;
      const prior = seen.get(key);
      if (prior) {
        (prior.related ??= []).push(lines[i]!.n);
        continue;
      }
      const signal: Signal = {
        kind: 'diagnostic',
        path,
        line,
        message,
        tool: 'javac',
        severity,
        category: 'compile',
        weight: severity === 'error' ? 1 : 0.3,
        logLine: lines[i]!.n,
      };
      if (column !== undefined) signal.column = column;
      if (related.length) signal.related = related;
      seen.set(key, signal);
      out.push(signal);
    }
    for (const s of out) s.category = categoryOf(s.message, out);
    return out;
  },
};

/**
 * A missing package is a dependency problem unless the repo itself owns it (a class moved or renamed):
 * the repo's own packages share their first two segments with the files javac complains about.
 */
function categoryOf(message: string, all: readonly Signal[]): Category {
  if (CLASS_FILE_NOT_FOUND.test(message)) return 'dependency';
  const m = MISSING_PACKAGE.exec(message);
  if (!m) return 'compile';
  const root = m[1]!.split('.').slice(0, 2).join('/');
  const owned = all.some((s) => s.path !== undefined && s.path.replace(/\\/g, '/').includes(`/${root}/`));
  return owned ? 'compile' : 'dependency';
}
