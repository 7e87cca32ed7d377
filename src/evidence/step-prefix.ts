import type { LogLine } from '../types.js';

/**
 * BuildKit's plain progress puts its step number and the seconds since the step began before every line
 * the step's command printed (`#29 35.78 Error: Turbopack build failed`). Like a runner's timestamp, the
 * prefix hides the command's own structure (indent, `>` and `|` source lines, `at` frames) from the block
 * finder. The step's own lines (`#29 [builder 4/4] RUN …`, `#29 DONE 27.1s`, `#29 ERROR: …`) carry no
 * seconds and keep their text.
 */
const BUILDKIT_PREFIX = /^#\d+ \d+\.\d+(?: |$)/;

/**
 * The Actions runner's annotation on a line a tool printed: a problem matcher (setup-node's eslint and tsc
 * ones, setup-python's) or the tool's own `::error::` turns `  67:17  error  'x' is never reassigned` into
 * `##[error]  67:17  error  …`. When the tool's text is indented, the indent is its structure (the entries
 * under eslint's file line), so the prefix is cut; an unindented message keeps it, the runner's word that
 * it is an error (`##[error]This request has been automatically failed …`, `##[error]Process completed …`).
 */
const ANNOTATION_PREFIX = /^##\[(?:error|warning|notice)\](?=[ \t])/;

/**
 * Maven's logger with `-Dorg.slf4j.simpleLogger.showDateTime=true` and no date format: the milliseconds
 * since Maven started before every line it logs (`21794 [ERROR] Failed to execute goal …`, `19547 [ERROR]
 * Tests run: …`). Like a timestamp, it hides the `[ERROR]` / `[INFO]` level that Maven's report and its
 * advice are read by; the test output Maven relays (an exception, its `at` frames) carries none.
 */
const MAVEN_ELAPSED_PREFIX = /^\d+ (?=\[(?:INFO|ERROR|WARNING|DEBUG)\](?: |$))/;

const prefixOf = (text: string): RegExp | undefined => {
  const c = text.charCodeAt(0);
  if (c >= 48 && c <= 57) return MAVEN_ELAPSED_PREFIX.test(text) ? MAVEN_ELAPSED_PREFIX : undefined;
  return c !== 35 /* # */ ? undefined : BUILDKIT_PREFIX.test(text) ? BUILDKIT_PREFIX : ANNOTATION_PREFIX.test(text) ? ANNOTATION_PREFIX : undefined;
};

/** The lines with BuildKit's `#N S.SS ` prefix, the runner's annotation or Maven's elapsed milliseconds cut, line numbers kept; the same array when none has one. */
export function withoutStepPrefix(lines: readonly LogLine[]): readonly LogLine[] {
  if (!lines.some((l) => prefixOf(l.text))) return lines;
  return lines.map((l) => {
    const p = prefixOf(l.text);
    return p ? { ...l, text: l.text.replace(p, '') } : l;
  });
}
