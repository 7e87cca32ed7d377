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
          // The task's own output above says why it failed; this line only names it.
          if (category) out.push({ ...note(`Task ${task[1]} FAILED`, category, l.n), restatement: true });
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
        if (s) {
          // The report's opening (`FAILURE: Build failed with an exception.`, `* Where:` and its location)
          // heads the block; a build script's error is a compile-time failure of the build.
          const where = reportStart(lines, i);
          if (where.where && s.category === 'unknown') s.category = 'compile';
          if (!s.restatement) s.related = [...new Set([...where.lines, lines[i]!.n, ...(s.related ?? [])])].sort((a, b) => a - b);
          out.push(s);
        }
        continue;
      }
      if (text === '* Where:' && i + 1 < lines.length) {
        const w = WHERE_FILE.exec(lines[i + 1]!.text);
        if (w) {
          const body = reportBody(lines, i + 2);
          // Where the build script was when the report's failure happened: a script error is the build's own
          // (compile), but dependencies it could not resolve there are a dependency failure (the network's,
          // when the repository could not be reached), as the report's `What went wrong` says.
          const near = new Map(lines.slice(i, i + 2 + MAX_REPORT_HEAD + MAX_REPORT_BODY).map((l) => [l.n, l.text] as const));
          const said = body.map((n) => near.get(n) ?? '').join('\n');
          const category: Category = RESOLVE_FAILED.test(said) ? (NETWORK.test(said) ? 'infra' : 'dependency') : 'compile';
          const s: Signal = { kind: 'diagnostic', path: w[1]!, line: Number(w[2]), message: lines[i + 1]!.text, tool: 'gradle', severity: 'error', category, weight: 1, logLine: lines[i + 1]!.n };
          if (body.length) s.related = [...reportStart(lines, i).lines, lines[i]!.n, ...body];
          out.push(s);
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

// The opening of Gradle's failure report, above `* Where:` / `* What went wrong:` (blank lines removed).
const FAILURE_HEAD = /^FAILURE: Build (?:failed with an exception|completed with \d+ failures?)\.?$/;
// What went wrong when the failure was reported above it: failing tests (their blocks say which), a
// compiler's errors (`see the compiler error output`, Kotlin's `Compilation error. See log`).
const RESTATES = /There were failing tests|see the compiler error output for details|Compilation error\. See log for more details/;
/** How far above `* What went wrong:` the report's opening may sit (`FAILURE:`, `* Where:`, its location, blanks). */
const MAX_REPORT_HEAD = 6;
/** How many lines a `* What went wrong:` body may hold: Gradle prints a few `> ` causes, not a trace. */
const MAX_REPORT_BODY = 40;

/** The lines above `* What went wrong:` that open the same report: `FAILURE: …`, `* Where:` and the location. */
function reportStart(lines: readonly LogLine[], at: number): { lines: number[]; where: boolean } {
  const out: number[] = [];
  let where = false;
  for (let k = at - 1; k >= 0 && k >= at - MAX_REPORT_HEAD; k--) {
    const t = lines[k]!.text;
    if (t.trim() === '') continue;
    if (t === '* Where:' || /^(?:Build file|Script|Settings file|Init script) '/.test(t)) {
      where ||= t === '* Where:';
      out.push(lines[k]!.n);
      continue;
    }
    if (FAILURE_HEAD.test(t)) out.push(lines[k]!.n);
    break;
  }
  return { lines: out.reverse(), where };
}

/** The lines of the `* What went wrong:` body after a `* Where:` at `from` (its own line included), up to `* Try:`. */
function reportBody(lines: readonly LogLine[], from: number): number[] {
  let k = from;
  while (k < lines.length && k < from + MAX_REPORT_HEAD && lines[k]!.text.trim() === '') k++;
  if (lines[k]?.text !== '* What went wrong:') return [];
  const out = [lines[k]!.n];
  for (let j = k + 1; j < lines.length && j < k + MAX_REPORT_BODY; j++) {
    const t = lines[j]!.text;
    if (t === '' || t.startsWith('* ')) break;
    out.push(lines[j]!.n);
  }
  return out;
}

/** Gradle could not resolve a dependency: `Could not resolve …`, `Could not find group:name:version`. */
const RESOLVE_FAILED = /Could not resolve|Could not find [\w.-]+:[\w.-]+/;
/** The `* What went wrong:` block: its most specific `> ` line says what failed. */
function wentWrong(lines: readonly LogLine[], from: number): Signal | null {
  const body: LogLine[] = [];
  for (let k = from; k < lines.length && k < from + MAX_REPORT_BODY; k++) {
    const t = lines[k]!.text;
    if (t === '' || t.startsWith('* ')) break;
    body.push(lines[k]!);
  }
  if (!body.length) return null;
  const text = body.map((b) => b.text).join('\n');
  const category: Category = RESOLVE_FAILED.test(text)
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
  if (RESTATES.test(text)) signal.restatement = true;
  return signal;
}
