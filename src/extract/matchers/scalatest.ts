import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

/** Longer lines are serialized blobs, not a reporter line: skipping them bounds the regexes. */
const MAX_LINE = 4000;
/** Lines under one failure kept as related: a message, a diagrammed assertion; the trace is the frame matcher's. */
const MAX_BLOCK = 20;
// sbt prefixes every reporter line with `[info] `; the Maven and Gradle plugins print them bare.
const SBT_PREFIX = /^\[info\] ?/;
// `- should throw when empty *** FAILED ***`, with the duration since ScalaTest 2 (`*** FAILED *** (27 milliseconds)`).
const FAILED = /^- (.+?) \*\*\* FAILED \*\*\*(?: \(.+\))?$/;
// A suite that could not run: `Exception encountered when attempting to run a suite with class name: x *** ABORTED ***`.
const ABORTED = /^(.+?) \*\*\* ABORTED \*\*\*(?: \(.+\))?$/;
// The failure's message ends in where it was raised: `1 did not equal 2 (DAGSchedulerSuite.scala:242)`.
const WHERE = /\(([^()\s:]+\.scala):(\d+)\)$/;
// The stack trace under the message (`at x(F.scala:1)`, `...`, the exception's class line) is frames-jvm's.
const TRACE = /^(?:at |\.\.\.$|[\w$.]+(?:Exception|Error)(?::|$))/;
const SUITE = /^([A-Za-z_$][\w$.]*):$/;
// The run's closing counts and sbt's summary restate the failures above.
const SUMMARY = /^\*\*\* \d+ (?:TESTS?|SUITES?) (?:FAILED|ABORTED) \*\*\*$|^Tests: succeeded \d+, failed [1-9]\d*,|sbt\.TestsFailedException: Tests unsuccessful/;
const SBT_FAILED_TESTS = /^\[error\] Failed tests:$/;
const SBT_FAILED_TEST = /^\[error\] \s*\t\s*(\S+)$|^\[error\] {2,}(\S+)$/;

function body(text: string): string {
  return text.replace(SBT_PREFIX, '');
}

/**
 * Reads ScalaTest's reporter (through sbt, Maven or Gradle): each `- test *** FAILED ***` with its message,
 * pinned to the `(File.scala:N)` the message ends in, and each `*** ABORTED ***` suite. The run's summary
 * (`*** 1 TEST FAILED ***`, `Tests: succeeded 1, failed 1`, sbt's `Failed tests:` list and
 * `TestsFailedException`) restates those failures.
 */
export const scalatestMatcher: Matcher = {
  id: 'scalatest',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    let suite: string | undefined;
    for (let i = 0; i < lines.length; i++) {
      const { n, text } = lines[i]!;
      if (text.length > MAX_LINE) continue;
      const t = body(text);
      const s = SUITE.exec(t);
      if (s) {
        suite = s[1];
        continue;
      }
      if (t.includes('***')) {
        const f = FAILED.exec(t);
        const a = f ? null : ABORTED.exec(t);
        if (f || a) {
          const related: number[] = [];
          const message: string[] = [];
          let where: RegExpExecArray | null = null;
          // The message is the indented lines under the test, up to where it was raised or the trace.
          for (let j = i + 1; j < lines.length && related.length < MAX_BLOCK; j++) {
            const raw = lines[j]!.text;
            if (raw.length > MAX_LINE) break;
            const m = body(raw);
            if (!/^ {2}\S/.test(m) || TRACE.test(m.trim())) break;
            related.push(lines[j]!.n);
            message.push(m.trim());
            where = WHERE.exec(m);
            if (where) break;
          }
          const symbol = f ? f[1]! : a![1]!;
          const signal: Signal = { kind: 'test', symbol, message: message.join(' ').replace(WHERE, '').trim() || `${symbol} failed`,
            tool: 'scalatest', category: 'test', severity: 'error', weight: f ? 0.9 : 0.7, logLine: n, related };
          if (where) Object.assign(signal, { path: where[1]!, line: Number(where[2]) });
          else if (suite && f) signal.message = `${suite}: ${signal.message}`;
          out.push(signal);
          continue;
        }
      }
      if (SUMMARY.test(t)) {
        out.push({ kind: 'test', message: t.replace(/^\[error\] /, '').trim(), tool: 'scalatest', category: 'test', severity: 'error',
          weight: 0.3, logLine: n, restatement: true });
        continue;
      }
      if (SBT_FAILED_TESTS.test(text)) {
        const related: number[] = [];
        for (let j = i + 1; j < lines.length && related.length < MAX_BLOCK && SBT_FAILED_TEST.test(lines[j]!.text); j++) related.push(lines[j]!.n);
        out.push({ kind: 'test', message: 'Failed tests', tool: 'scalatest', category: 'test', severity: 'error', weight: 0.3, logLine: n,
          related, restatement: true });
      }
    }
    return out;
  },
};
