import type { Block } from './block.js';

/**
 * A build tool's verdict on a test task that only points back at the test runner's report printed above
 * it: Maven's surefire and failsafe (`[ERROR] Failed to execute goal …maven-surefire-plugin…:test … There are
 * test failures.`, and the same words in its `-e` trace's `LifecycleExecutionException`), Gradle's (`> There
 * were failing tests. See the report at: file://…` under `Execution failed for task ':test'.`), sbt's
 * (`sbt.TestsFailedException: Tests unsuccessful`), and Maven's pointer to the reports when the goal's line
 * says nothing more (`Please refer to …/surefire-reports for the individual test results.`), npm's (`Test failed.  See above for more details.`). The
 * failing tests' own blocks say what failed; the verdict names no test and no cause. Labels across CI systems
 * leave it out (in the wild corpus' study half and its Travis logs, 25 of 27 such Maven and Gradle lines are unquoted).
 */
const TEST_VERDICT = /\bThere (?:are|were) (?:test failures|failing tests)\b|\bPlease refer to \S+ for the individual test results\b|\bTests unsuccessful\b|\bTest failed\.\s+See above for more details\b/;
/**
 * How far from a block's first line the verdict may sit: Gradle prints it under `FAILURE: Build failed with an exception.`,
 * `* What went wrong:` and `Execution failed for task ':test'.`, Maven's trace on the exception's first line.
 */
const VERDICT_REACH = 4;

/**
 * Whether a block is a build tool's test verdict: the verdict among its first lines, and no assertion of its
 * own. Such a block restates the runner's report, so it is quoted only when nothing else was found.
 */
export function isRestatedTestVerdict(b: Block, text: ReadonlyMap<number, string>): boolean {
  if (b.kind === 'assertion') return false;
  // Read past the block's end: Maven ends its goal's line at `on project x: ` and prints the verdict after a
  // line that is its log level alone, where the block stopped.
  for (let n = b.start; n < b.start + VERDICT_REACH; n++) if (TEST_VERDICT.test(text.get(n) ?? '')) return true;
  return false;
}
