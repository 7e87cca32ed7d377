import type { LogLine } from '../types.js';
import type { SectionMarker } from './scan-log.js';
import { detectFormat, pickFailingStep, type CiFormat, type Step } from './formats/index.js';
import { retryWrapperLines } from './formats/retry-lines.js';

export type { Step } from './formats/index.js';
export { fetchesSources } from './formats/index.js';

export interface StepLayout {
  /** The CI the log came from (detected from its markers), or `plain` for pasted tool output. */
  format: CiFormat;
  steps: Step[];
  failing: Step | null;
  /** First line of the runner's post-job cleanup, which is never the cause (Actions only). */
  cleanupStart?: number;
  /**
   * The lines as a person reads them, when the CI prefixes every output line (Drone's `[step:L1:1s] `)
   * or printed lines about itself (the format's runnerLines: Jenkins' own stack traces): the same line
   * numbers, the prefix cut, the runner's own lines left out. Absent when the lines need no change.
   */
  lines?: LogLine[];
  /** The runner's own lines (left out of `lines`), when the format found any. */
  runnerLines?: ReadonlySet<number>;
}

/**
 * Splits the log into its CI's steps (src/log/formats/: one module per CI) and picks the step that
 * ended the job with the one shared rule (formats/pick-failing-step.ts): a step that failed, never a
 * post / cleanup step, never a later step that merely ran after it.
 */
export function findFailingStep(lines: readonly LogLine[], sections: readonly SectionMarker[], totalLines: number): StepLayout {
  const input = { lines, sections, totalLines };
  const format = detectFormat(input);
  const steps = format.steps(input);
  if (format.id === 'plain') return { format: 'plain', steps: [], failing: null };
  const cleanupStart = format.cleanupStart?.(input);
  const cut = format.linePrefix ? withoutPrefix(lines, format.linePrefix) : undefined;
  // The runner's own lines, and a retry wrapper's notices about its attempts (any CI): never evidence.
  const own = new Set([...(format.runnerLines?.(cut ?? lines) ?? []), ...retryWrapperLines(cut ?? lines)]);
  const read = own.size ? (cut ?? lines).filter((l) => !own.has(l.n)) : cut;
  return {
    format: format.id,
    steps,
    failing: pickFailingStep(steps, format.failureOrder),
    ...(cleanupStart ? { cleanupStart } : {}),
    ...(read ? { lines: read } : {}),
    ...(own.size ? { runnerLines: own } : {}),
  };
}

/** The lines with the CI's per-line prefix cut (steps were read from the prefixed lines first). */
function withoutPrefix(lines: readonly LogLine[], prefix: RegExp): LogLine[] {
  return lines.map((l) => {
    const m = prefix.exec(l.text);
    return m ? { n: l.n, text: l.text.slice(m[0].length) } : l;
  });
}
