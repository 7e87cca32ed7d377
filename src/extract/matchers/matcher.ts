import type { LogLine, Signal } from '../../types.js';

/**
 * A matcher reads what one toolchain prints. It gets the cleaned lines of the part of the log that
 * matters (the failing step, or the whole bounded excerpt when there are no steps) and returns the
 * signals it recognises, in log order. It must be linear-ish in the number of lines, never throw, and
 * return nothing for output that is not its tool's.
 */
export interface Matcher {
  /** Short id, used as Signal.tool: 'tsc', 'eslint', 'pytest', ... */
  id: string;
  extract(lines: readonly LogLine[]): Signal[];
  /**
   * True for a matcher of Ant's own output, which reads the task column (`    [get] Error getting …`); every
   * other matcher is given the lines without it (src/extract/task-prefix.ts).
   */
  readsTaskPrefix?: boolean;
}
