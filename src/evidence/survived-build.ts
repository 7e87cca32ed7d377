import type { Block } from './block.js';

/**
 * A build tool's verdict that its run succeeded: Ant's and Gradle's `BUILD SUCCESSFUL` (Gradle adds `in 3s`),
 * Maven's `[INFO] BUILD SUCCESS`.
 */
const BUILD_SUCCESS = /^(?:\[INFO\] )?BUILD SUCCESS(?:FUL)?(?: in \d.*)?\s*$/;

/**
 * The blocks printed before a build that then said it succeeded (a test's logged exception under Ant's
 * junit task, a warning with `error` in it) when the step failed later, in a command after that build (`ant
 * test && nosetests`): that build survived them, so they are not why the step failed; what failed after the
 * verdict is. With nothing proposed after the verdict, every block stays.
 */
export function withoutSurvivedBuild(blocks: readonly Block[], text: ReadonlyMap<number, string>): Block[] {
  let verdict = -1;
  for (const [n, t] of text) if (n > verdict && BUILD_SUCCESS.test(t)) verdict = n;
  if (verdict < 0 || !blocks.some((b) => b.start > verdict)) return [...blocks];
  return blocks.filter((b) => b.end > verdict);
}
