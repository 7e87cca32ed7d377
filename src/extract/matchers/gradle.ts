import type { Category, LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';
import { isJvmLibraryFrame, parseJvmFrame } from './frames-jvm.js';

// `> Task :app:test FAILED` (Gradle 5+) or `:app:test FAILED` (Gradle 4 plain console).
const TASK_FAILED = /^(?:> Task )?(:[\w:.-]+) FAILED$/;
// `com.a.XTest > testY FAILED`, `XTest > Nested > testY() FAILED`; the test logger's own indent is 0.
const TEST_FAILED = /^(\S[^>]*?(?: > [^>]+?)+) FAILED$/;
// Gradle's short exception format: `    java.lang.AssertionError at XTest.java:4`.
const SHORT_EXCEPTION = /^\s+(\S+) at ([\w$-]+\.(?:java|kt|groovy|scala)):(\d+)$/;
// Kotlin Gradle plugin: `e: file:///abs/X.kt:12:5 msg` (1.8+) or `e: /abs/X.kt: (12, 5): msg` (older).
const KOTLIN_URL = /^([ew]): file:\/\/(\/?[^\s:]+\.kts?):(\d+):(\d+) (.*)$/;
const KOTLIN_OLD = /^([ew]): ((?:[A-Za-z]:)?[^\s:][^:]*\.kts?): \((\d+), (\d+)\): (.*)$/;
const WHERE_FILE = /^(?:Build file|Script|Settings file|Init script) '([^']+)' line: (\d+)$/;
const NETWORK = /Could not (?:GET|HEAD) |Connection (?:refused|reset|timed out)|Read timed out|Unknown ?host|No route to host|status code 5\d\d|Received status code 5\d\d/i;

/** Reads Gradle: failed tasks and tests, `* What went wrong:` / `* Where:` blocks, Kotlin `e:` errors. */
export const gradleMatcher: Matcher = {
  id: 'gradle',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    for (let i = 0; i < lines.length; i++) {
      const l = lines[i]!;
      const text = l.text;
      if (text.endsWith(' FAILED')) {
        const task = TASK_FAILED.exec(text);
        if (task) {
          const category = taskCategory(task[1]!);
          if (category) out.push(note(`Task ${task[1]} FAILED`, category, l.n));
          continue;
        }
        const test = TEST_FAILED.exec(text);
        if (test) out.push(testSignal(test[1]!, lines, i));
        continue;
      }
      if (text.startsWith('e: ') || text.startsWith('w: ')) {
        const k = KOTLIN_URL.exec(text) ?? KOTLIN_OLD.exec(text);
        if (k) {
          const error = k[1] === 'e';
          out.push({
            kind: 'diagnostic',
            path: k[2]!,
            line: Number(k[3]),
            column: Number(k[4]),
            message: k[5]!.trim(),
            tool: 'kotlinc',
            severity: error ? 'error' : 'warning',
            category: 'compile',
            weight: error ? 1 : 0.3,
            logLine: l.n,
          });
        }
        continue;
      }
      if (text === '* What went wrong:') {
        const s = wentWrong(lines, i + 1);
        if (s) out.push(s);
        continue;
      }
      if (text === '* Where:' && i + 1 < lines.length) {
        const w = WHERE_FILE.exec(lines[i + 1]!.text);
        if (w) {
          out.push({ kind: 'diagnostic', path: w[1]!, line: Number(w[2]), message: lines[i + 1]!.text, tool: 'gradle', severity: 'error', category: 'compile', weight: 1, logLine: lines[i + 1]!.n });
        }
      }
    }
    return out;
  },
};

/** What a failed task says about the failure, from its name; null when the name says nothing. */
function taskCategory(task: string): Category | null {
  const name = task.slice(task.lastIndexOf(':') + 1);
  if (/test/i.test(name)) return 'test';
  if (/^compile\w*|^kapt\w*|^ksp\w*/.test(name)) return 'compile';
  if (/spotless|checkstyle|ktlint|detekt|lint|pmd|spotbugs|errorprone/i.test(name)) return 'lint';
  return null;
}

function note(message: string, category: Category, logLine: number): Signal {
  return { kind: 'diagnostic', message, tool: 'gradle', category, severity: 'error', weight: 0.8, logLine };
}

/** A failed test: the exception under it is the message, the test class's own frame the location. */
function testSignal(title: string, lines: readonly LogLine[], at: number): Signal {
  const signal: Signal = { kind: 'test', symbol: title, message: title, tool: 'gradle', category: 'test', severity: 'error', weight: 0.9, logLine: lines[at]!.n };
  const cls = title.split(' > ')[0]!.trim();
  const next = lines[at + 1];
  if (!next || !/^\s+\S/.test(next.text)) return signal;
  const short = SHORT_EXCEPTION.exec(next.text);
  signal.message = short ? short[1]! : next.text.trim();
  signal.related = [next.n];
  if (short) {
    signal.path = short[2]!;
    signal.line = Number(short[3]);
    return signal;
  }
  for (let k = at + 2; k < lines.length && k < at + 200; k++) {
    const t = lines[k]!.text;
    if (!/^\s/.test(t)) break;
    const f = parseJvmFrame(t);
    if (!f || isJvmLibraryFrame(f.symbol)) continue;
    // The test logger prints simple or qualified class names depending on the setup: match either.
    if (f.className === cls || f.className.endsWith(`.${cls}`) || f.className.startsWith(`${cls}$`)) {
      signal.path = f.path;
      signal.line = f.line;
      break;
    }
  }
  return signal;
}

/** The `* What went wrong:` block: its most specific `> ` line says what failed. */
function wentWrong(lines: readonly LogLine[], from: number): Signal | null {
  const body: LogLine[] = [];
  for (let k = from; k < lines.length && k < from + 40; k++) {
    const t = lines[k]!.text;
    if (t === '' || t.startsWith('* ')) break;
    body.push(lines[k]!);
  }
  if (!body.length) return null;
  const text = body.map((b) => b.text).join('\n');
  const category: Category = /Could not resolve|Could not find [\w.-]+:[\w.-]+/.test(text)
    ? NETWORK.test(text)
      ? 'infra'
      : 'dependency'
    : /There were failing tests/.test(text)
      ? 'test'
      : /Compilation (?:failed|error)|compilation errors?/i.test(text)
        ? 'compile'
        : /format violations|Checkstyle|ktlint|detekt|lint/i.test(text)
          ? 'lint'
          : /OutOfMemoryError|Java heap space|Gradle (?:build )?daemon disappeared/.test(text)
            ? 'infra'
            : 'unknown';
  const detail = body.find((b) => b.text.startsWith('> ')) ?? body[0]!;
  const signal = note(detail.text.replace(/^> /, '').trim(), category, detail.n);
  signal.related = body.filter((b) => b !== detail).map((b) => b.n);
  return signal;
}
