import type { Verified } from './verify.js';
import { isChangedLine, type PrDiff } from '../repo/diff.js';

/**
 * Final deterministic order. Score first (how directly the evidence points here); within the log's own
 * locations, the PR's changed lines first: of five compiler errors, the one on a line the PR touched is
 * the root cause far more often than the knock-on errors on lines it did not touch.
 */
/** The lift a log location gets for sitting on a line the PR changed. */
export const CHANGED_LOG_LINE_BOOST = 0.2;

export function rankCandidates(verified: Verified[], diff: PrDiff | undefined): Verified[] {
  const ranked = verified.map((v) => {
    // a log location that landed on a diff candidate is still one of the log's own locations (esbuild's note
    // `The symbol "strings" was declared a constant here: src/index.ts:5:8` on the PR's changed declaration)
    const fromLog = v.cause !== 'diff' || v.logLocated === true;
    const boost = fromLog && isChangedLine(diff, v.file, v.line) ? CHANGED_LOG_LINE_BOOST : 0;
    return { v, key: v.score + boost };
  });
  ranked.sort((a, b) => b.key - a.key || b.v.confidence - a.v.confidence || firstLogLine(a.v) - firstLogLine(b.v));
  return ranked.map((r) => r.v);
}

function firstLogLine(v: Verified): number {
  return v.signals.length ? Math.min(...v.signals.map((s) => s.logLine)) : Number.MAX_SAFE_INTEGER;
}
