import type { Block } from './block.js';
import { isFrame } from './vocabulary.js';

/**
 * The error a wrapper throws when a child it ran exited non-zero, carrying only that exit: Node's
 * child_process (`Error: Command failed: npm test`, from execSync in a monorepo's test script), gulp's task
 * runner (`[10:39:36] 'test' errored after 44 s` then `Error: 1`, a task whose child exited 1). An optional
 * `[hh:mm:ss]` stamp is gulp's.
 */
const EXIT_ERROR = /^(?:\[\d\d:\d\d:\d\d\] )?(?:Error: Command failed: \S|Error: \d+$|'[^']+' errored after \d)/;
/**
 * The same restatement where a traceback ends with it, after the wrapper's frames: Python's subprocess
 * (`subprocess.CalledProcessError: Command '['cmake', '--build', '.']' returned non-zero exit status 2.`, from a
 * setup.py that builds an extension, a build script, a test harness), execa's (`ExecaError: Command failed with
 * exit code 1: npm test`). The command's own error was printed above it.
 */
const EXIT_ERROR_LAST = /^(?:subprocess\.)?CalledProcessError: Command .* returned non-zero exit status -?\d+\.?$|^(?:Execa)?Error: Command failed with exit code \d+/;

/**
 * Maven's `-e` trace of a goal that failed for the reason it reported: `LifecycleExecutionException: Failed to
 * execute goal …` through Maven's own frames, caused by the plugin's `MojoFailureException: There are test
 * failures.` (or `Compilation failure`) and nothing deeper. It restates the `[ERROR] Failed to execute goal`
 * line, whose report (surefire's, javac's) is above it. A goal that broke on an exception of its own (a
 * `MojoExecutionException` caused by a plugin's NPE) is not a restatement: its causes say what broke.
 */
const MAVEN_GOAL_TRACE = /(?:^|\s)org\.apache\.maven\.lifecycle\.LifecycleExecutionException: Failed to execute goal /;
const CAUSED_BY = /^\s*Caused by: (\S+?):?(?:\s|$)/;
const MOJO_FAILURE = 'org.apache.maven.plugin.MojoFailureException';
/** How far above a trace's first frame its Maven exception line may be. */
const MAVEN_HEAD_REACH = 4;

/** A `Caused by:` line's message, after its exception class. */
const CAUSE_MESSAGE = /^\s*Caused by: \S+?: (.+?)\s*$/;

function isMavenGoalTrace(b: Block, text: ReadonlyMap<number, string>): boolean {
  // The exception line may stand apart from its frames (Maven prints the goal's ids on lines of their own
  // between them): it is looked for at the block's head and on the few lines above it, and on the line under
  // a head that is Maven's own `[ERROR] Failed to execute goal …` (`-e` prints the trace right under it).
  let goal: string | undefined;
  for (let n = b.start - MAVEN_HEAD_REACH; n <= b.header + 1 && goal === undefined; n++) {
    const t = text.get(n) ?? '';
    if (MAVEN_GOAL_TRACE.test(t)) goal = t;
  }
  if (goal === undefined) return false;
  let root: string | undefined;
  // Whether every cause only repeats what the goal line already says: a plugin that reported its failure
  // (nexus-staging's `Remote staging failed: Staging rules failure!`, printed as a report above) and then
  // threw it up through its own wrappers (`MojoExecutionException`, `ArtifactDeploymentException`,
  // `StagingRuleFailuresException`, each with that same message). A cause with a message of its own, or
  // none (an NPE), says what broke.
  let restated = true;
  let rootMessage: string | undefined;
  for (let n = b.start; n <= b.end; n++) {
    const line = text.get(n) ?? '';
    const c = CAUSED_BY.exec(line);
    if (!c) continue;
    root = c[1];
    const m = CAUSE_MESSAGE.exec(line);
    rootMessage = m?.[1];
    if (!m || !goal.includes(m[1]!)) restated = false;
  }
  if (root === MOJO_FAILURE) return true;
  // The plugin's own report must be above the goal line: when the goal line is the only place the message is
  // printed (a license plugin's `Resource … not found`), the goal line and its trace are the report.
  return root !== undefined && restated && rootMessage !== undefined && reportedAbove(rootMessage, b.start, text);
}

/** How far above a Maven goal's trace the plugin's own report of its failure is looked for. */
const REPORT_REACH = 200;

function reportedAbove(message: string, start: number, text: ReadonlyMap<number, string>): boolean {
  for (let n = start - 1; n >= start - REPORT_REACH; n--) {
    const t = text.get(n);
    if (t === undefined) return false;
    if (t.includes(message) && !t.includes('Failed to execute goal')) return true;
  }
  return false;
}

/**
 * A stack trace that only restates a child's exit: the wrapper's frames (its script, the task runner's
 * internals), printed after the child's own failure report. Not why the step failed: the child's report
 * above it is. Read at the block's first lines (its header, or the runner's line just above the error), and at
 * its last (where Python's and execa's errors end their traces).
 */
/**
 * Gradle's `--stacktrace` trace of a task that failed for the reason it reported: under `* Exception is:`,
 * `TaskExecutionException: Execution failed for task ':test'.` through Gradle's own frames, caused by
 * `VerificationException: There were failing tests. See the report at: …`, the very line `* What went wrong:`
 * printed above it. The tests' (javac's) report above is the failure; a cause `* What went wrong:` did not
 * print says more, and keeps the trace.
 */
const GRADLE_TASK_TRACE = /(?:^|\s)org\.gradle\.api\.tasks\.TaskExecutionException: Execution failed for task /;
/** How far past the block the rest of the trace is read, and the JVM's `... 12 more`. */
const MAX_TRACE_READ = 600;
const MORE = /^\s*\.\.\. \d+ more$/;
/** How far above the trace `* What went wrong:` and its lines are read. */
const WHAT_WENT_WRONG_REACH = 40;

function isGradleTaskTrace(b: Block, text: ReadonlyMap<number, string>): boolean {
  // The trace's head: at the block's first lines, or above them when the block is a later piece of a long
  // trace (frames and `Caused by:` lines all the way up).
  let head: number | undefined;
  for (let n = b.header + 1; n >= b.start - MAX_TRACE_READ && head === undefined; n--) {
    const line = text.get(n);
    if (line === undefined) break;
    if (GRADLE_TASK_TRACE.test(line)) head = n;
    else if (n < b.start && !isFrame(line) && !CAUSED_BY.test(line) && !MORE.test(line)) break;
  }
  if (head === undefined) return false;
  const above: string[] = [];
  for (let n = head - WHAT_WENT_WRONG_REACH; n < head; n++) above.push(text.get(n) ?? '');
  const printed = above.join('\n');
  let causes = 0;
  // The whole trace, past the block (a long trace is found in pieces): its frames, `Caused by:` and `... N more`.
  for (let n = head + 1; n <= head + 1 + MAX_TRACE_READ; n++) {
    const line = text.get(n);
    if (line === undefined || (!isFrame(line) && !CAUSED_BY.test(line) && !MORE.test(line))) break;
    if (!CAUSED_BY.test(line)) continue;
    causes++;
    const m = CAUSE_MESSAGE.exec(line);
    if (!m || !printed.includes(m[1]!)) return false;
  }
  return causes > 0;
}

export function isExitRestatingTrace(b: Block, text: ReadonlyMap<number, string>): boolean {
  if (b.kind !== 'trace') return false;
  if (isMavenGoalTrace(b, text) || isGradleTaskTrace(b, text)) return true;
  for (const n of [b.start, b.header]) if (EXIT_ERROR.test((text.get(n) ?? '').trim())) return true;
  return EXIT_ERROR_LAST.test((text.get(b.end) ?? '').trim());
}
