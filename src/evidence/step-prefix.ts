import type { LogLine } from '../types.js';

/**
 * BuildKit's plain progress puts its step number and the seconds since the step began before every line
 * the step's command printed (`#29 35.78 Error: Turbopack build failed`). Like a runner's timestamp, the
 * prefix hides the command's own structure (indent, `>` and `|` source lines, `at` frames) from the block
 * finder. The step's own lines (`#29 [builder 4/4] RUN …`, `#29 DONE 27.1s`, `#29 ERROR: …`) carry no
 * seconds and keep their text.
 */
const BUILDKIT_PREFIX = /^#\d+ \d+\.\d+(?: |$)/;

/** The lines with BuildKit's `#N S.SS ` prefix cut, line numbers kept; the same array when none has one. */
export function withoutStepPrefix(lines: readonly LogLine[]): readonly LogLine[] {
  if (!lines.some((l) => l.text.charCodeAt(0) === 35 /* # */ && BUILDKIT_PREFIX.test(l.text))) return lines;
  return lines.map((l) => (l.text.charCodeAt(0) === 35 && BUILDKIT_PREFIX.test(l.text) ? { ...l, text: l.text.replace(BUILDKIT_PREFIX, '') } : l));
}
