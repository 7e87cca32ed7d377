import type { LogLine } from '../types.js';

/**
 * The column Apache Ant's DefaultLogger writes before every line a task prints: the task's name in brackets,
 * right-aligned in 12 columns, then a space (`    [javac] …`, `     [java] …`, `      [get] …`). The same logger prints it under maven-antrun-plugin and
 * for Ant builds run by NetBeans or Ivy; Gradle forwards an Ant task's output as `[ant:javac] …` at the line's
 * start. What follows the column is the tool's own output (javac's `File.java:12: error: …`, JUnit's
 * report, a Java program's stack trace), which the tool's matcher reads as it reads it without Ant.
 */
const ANT_COLUMN = 12;
// The column alone (`    [junit]`, the task's blank line, its trailing space trimmed by the log's cleaning) counts too.
const TASK = /^( *)\[((?:ant:)?[a-z][\w.-]*)\](?: |$)/;

/** The task's name and the tool's text of an Ant task-prefixed line, or undefined for any other line. */
export function antTaskLine(text: string): { task: string; rest: string } | undefined {
  const m = TASK.exec(text);
  if (!m) return undefined;
  const pad = m[1]!.length;
  const width = pad + m[2]!.length + 2;
  // Right-aligned: the padding fills the column exactly; or Gradle's form, which starts the line. A tag at
  // the line's start is otherwise another tool's (sbt's `[error] `, a script's `[fetch_odds] `, a thread's
  // `[pool-1-thread-3] `, Jenkins' `[job] $ sh`), so Ant's unpadded long task names are left as they are.
  const aligned = pad > 0 ? width === ANT_COLUMN - 1 : m[2]!.startsWith('ant:');
  return aligned ? { task: m[2]!, rest: text.slice(m[0].length) } : undefined;
}

/**
 * The lines as the tools under Ant printed them: each task-prefixed line without its column (same line
 * numbers), or the same array when no line has one. Matchers of the tools (javac, JUnit, JVM frames) read
 * this view; Ant's own matcher reads the prefixed lines, whose task names it needs.
 */
export function withoutTaskPrefix(lines: readonly LogLine[]): readonly LogLine[] {
  let out: LogLine[] | undefined;
  for (let i = 0; i < lines.length; i++) {
    const t = lines[i]!.text;
    if (!t.includes(']')) continue;
    const hit = antTaskLine(t);
    if (!hit) continue;
    out ??= lines.slice();
    out[i] = { ...lines[i]!, text: hit.rest };
  }
  return out ?? lines;
}
