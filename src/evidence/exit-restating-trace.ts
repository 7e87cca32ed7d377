import type { Block } from './block.js';

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

function isMavenGoalTrace(b: Block, text: ReadonlyMap<number, string>): boolean {
  // The exception line may stand apart from its frames (Maven prints the goal's ids on lines of their own
  // between them): it is looked for at the block's head and on the few lines above it.
  let head = false;
  for (let n = b.start - MAVEN_HEAD_REACH; n <= b.header && !head; n++) head = MAVEN_GOAL_TRACE.test(text.get(n) ?? '');
  if (!head) return false;
  let root: string | undefined;
  for (let n = b.start; n <= b.end; n++) {
    const c = CAUSED_BY.exec(text.get(n) ?? '');
    if (c) root = c[1];
  }
  return root === MOJO_FAILURE;
}

/**
 * A stack trace that only restates a child's exit: the wrapper's frames (its script, the task runner's
 * internals), printed after the child's own failure report. Not why the step failed: the child's report
 * above it is. Read at the block's first lines (its header, or the runner's line just above the error), and at
 * its last (where Python's and execa's errors end their traces).
 */
export function isExitRestatingTrace(b: Block, text: ReadonlyMap<number, string>): boolean {
  if (b.kind !== 'trace') return false;
  if (isMavenGoalTrace(b, text)) return true;
  for (const n of [b.start, b.header]) if (EXIT_ERROR.test((text.get(n) ?? '').trim())) return true;
  return EXIT_ERROR_LAST.test((text.get(b.end) ?? '').trim());
}
