import type { Category, LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';
import { MAX_ANT_TASK_TRACE } from '../../limits.js';

// Ant's verdict, alone on its line, with why under it: `/abs/build.xml:180: The following error occurred
// while executing this line:` (a chain down to the failing element), `Target "test" does not exist …`.
const VERDICT = /^BUILD FAILED\s*$/;
// `/abs/build.xml:66: java.net.UnknownHostException: host`, `C:\x\build.xml:12: msg`.
const AT = /^((?:[A-Za-z]:)?[^\s:]*\.xml):(\d+): (.*)$/;
// Where Ant's report stops: its closing time, a Java stack trace under the message (`-e` / `-verbose`).
const END = /^Total time: |^\s+at [\w$.]+\(|^\s+\.\.\. \d+ more$/;
/** Lines of Ant's report kept: a chain of `… occurred while executing this line:` rarely runs past a few. */
const MAX_REPORT = 12;
// A task's own error printed just above the verdict: `[get] Error getting http://…`, `[java] Failed to download …`.
const TASK_ERROR = /^\s*\[[\w-]+\] (?:Error|ERROR|Failed|FAILED|Could not|Cannot|Unable to)\b/;
/** How far above the verdict a task's error may sit (a blank line or two, Ant's own target line). */
const MAX_TASK_GAP = 3;
const NETWORK = /UnknownHostException|ConnectException|Connection (?:refused|reset|timed out)|SocketTimeoutException|No route to host|Error getting http/i;
const DEPENDENCY = /cannot be found|ClassNotFoundException|NoClassDefFoundError|Failed to download|Could not (?:resolve|find)|Unable to resolve|impossible to resolve/i;

function categoryOf(text: string): Category | undefined {
  if (NETWORK.test(text)) return 'infra';
  if (DEPENDENCY.test(text)) return 'dependency';
  if (/Compile failed|compiler errors?/i.test(text)) return 'compile';
  if (/Tests? (?:\S+ )?failed/i.test(text)) return 'test';
  return undefined;
}

/**
 * Reads Apache Ant's failure report: `BUILD FAILED` and the lines under it up to `Total time:` (the chain of
 * build-file locations, the message), one block headed by the verdict; and a task's own error just above it.
 */
export const antMatcher: Matcher = {
  id: 'ant',
  readsTaskPrefix: true,
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    for (let i = 0; i < lines.length; i++) {
      if (!VERDICT.test(lines[i]!.text)) continue;
      const body: LogLine[] = [];
      for (let k = i + 1; k < lines.length && body.length < MAX_REPORT; k++) {
        const t = lines[k]!.text;
        if (t.trim() === '' || END.test(t)) break;
        body.push(lines[k]!);
      }
      if (!body.length) continue;
      const text = body.map((b) => b.text).join('\n');
      // The outermost location is the project's own build file (deeper ones may be fetched or generated).
      const at = body.map((b) => AT.exec(b.text)).find((m) => m !== null);
      const last = body[body.length - 1]!;
      const message = (AT.exec(last.text)?.[3] ?? last.text).trim();
      const signal: Signal = {
        kind: 'diagnostic',
        message,
        tool: 'ant',
        severity: 'error',
        weight: 0.8,
        logLine: lines[i]!.n,
        related: body.map((b) => b.n),
        blockEnd: last.n,
      };
      const task: (LogLine & { end?: number }) | undefined = taskError(lines, i) ?? taskTrace(lines, i);
      const category = categoryOf(task ? `${task.text}\n${text}` : text);
      if (category) signal.category = category;
      if (at && category !== 'infra') {
        signal.path = at[1]!;
        signal.line = Number(at[2]);
      }
      if (task) out.push({ kind: 'diagnostic', message: task.text.trim(), tool: 'ant', severity: 'error', weight: 0.8, logLine: task.n, blockEnd: task.end ?? task.n, ...(category ? { category } : {}) });
      out.push(signal);
    }
    return out;
  },
};

/** A task's error line just above `BUILD FAILED` (across blank lines only). */
function taskError(lines: readonly LogLine[], verdict: number): LogLine | undefined {
  for (let k = verdict - 1; k >= 0 && k >= verdict - MAX_TASK_GAP; k--) {
    const t = lines[k]!.text;
    if (t.trim() === '') continue;
    return TASK_ERROR.test(t) ? lines[k] : undefined;
  }
  return undefined;
}

// A line a task relayed (`     [java] …`, `    [junit] …`, `     [exec] …`): Ant puts the task's name before
// every line the task's program printed, so the program's own structure is behind that prefix.
const TASK_LINE = /^\s*\[[\w:-]+\] ?(.*)$/;
// A JVM frame or its elision under the task prefix: `[java] \tat erjang.AllTests.main(AllTests.java:106)`.
const TASK_FRAME = /^\s+at [\w$.<>\/]+\(|^\s+\.\.\. \d+ more$|^Caused by: /;

/**
 * The program's stack trace a task printed just above `BUILD FAILED` (`[java] Exception in thread "main"
 * java.lang.NullPointerException` and its `[java] \tat …` frames, as `<java>`, `<junit>` and `<exec>` relay a
 * crashed JVM), when the verdict's own message only says the task's exit (`Java returned: 1`): the trace is
 * why, from the exception line (the first non-frame line going up, same task) to its last frame.
 */
function taskTrace(lines: readonly LogLine[], verdict: number): (LogLine & { end: number }) | undefined {
  let last = -1;
  for (let k = verdict - 1; k >= 0 && k >= verdict - MAX_TASK_GAP; k--) {
    if (lines[k]!.text.trim() === '') continue;
    last = k;
    break;
  }
  const inner = (k: number): string | undefined => TASK_LINE.exec(lines[k]!.text)?.[1];
  if (last < 0 || !TASK_FRAME.test(inner(last) ?? '')) return undefined;
  for (let k = last - 1; k >= 0 && k >= last - MAX_ANT_TASK_TRACE; k--) {
    const t = inner(k);
    if (t === undefined || t.trim() === '') return undefined;
    if (!TASK_FRAME.test(t)) return { ...lines[k]!, end: lines[last]!.n };
  }
  return undefined;
}
