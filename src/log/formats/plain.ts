import type { CiFormatModule } from './step.js';

/**
 * Pasted tool output with no CI frame (a terminal session, a `make` log). It has no steps: the whole
 * log is read as the failing command's output. Its confidence is the floor every CI format beats.
 */
export const plain: CiFormatModule = {
  id: 'plain',
  ceiling: 0.01,
  failureOrder: 'last',
  detect: () => 0.01,
  steps: () => [],
};
