import type { Block } from './block.js';

/**
 * A build tool's verdict that its run succeeded: Ant's and Gradle's `BUILD SUCCESSFUL` (Gradle adds `in 3s`),
 * Maven's `[INFO] BUILD SUCCESS`; SwiftPM's `Build complete! (128.04s)`, vite's `✓ built in 1.24s`, cargo's
 * `Finished `release` profile [optimized] target(s) in 3.2s` (also printed before `cargo test` runs the
 * tests), Next.js's `✓ Compiled successfully`.
 */
const BUILD_SUCCESS = new RegExp(
  [
    /^(?:\[INFO\] )?BUILD SUCCESS(?:FUL)?(?: in \d.*)?\s*$/.source,
    /^Build complete! \(\d/.source,
    /^\s*✓ built in \d/.source,
    /^\s*Finished .*target\(s\) in \d/.source,
    /^\s*✓ Compiled successfully\b/.source,
  ].join('|'),
);

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
