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
 * A stack trace that only restates a child's exit: the wrapper's frames (its script, the task runner's
 * internals), printed after the child's own failure report. Not why the step failed: the child's report
 * above it is. Read at the block's first lines (its header, or the runner's line just above the error), and at
 * its last (where Python's and execa's errors end their traces).
 */
export function isExitRestatingTrace(b: Block, text: ReadonlyMap<number, string>): boolean {
  if (b.kind !== 'trace') return false;
  for (const n of [b.start, b.header]) if (EXIT_ERROR.test((text.get(n) ?? '').trim())) return true;
  return EXIT_ERROR_LAST.test((text.get(b.end) ?? '').trim());
}
