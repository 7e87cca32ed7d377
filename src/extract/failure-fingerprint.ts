/**
 * The failure's fingerprint (issue 15): which tests failed and which diagnostics the failing step printed,
 * with locations normalised (the last two path components, no line or column: a PR that adds lines above
 * a failing assertion does not make it another failure) and messages masked (evidence/templates.ts). Two
 * runs fail "the same way" when every entry of one is in the other.
 */
import type { Signal } from '../types.js';
import type { LogSource } from '../log/open-log.js';
import { readLog } from '../log/read-log.js';
import { findFailingStep } from '../log/find-failing-step.js';
import { lineTemplate } from '../evidence/templates.js';
import { extractSignals } from './extract-signals.js';
import { MAX_STEP_LINES_FOR_MATCHERS } from '../limits.js';

/** Entries kept per fingerprint: a job with 10,000 lint errors is fingerprinted by its first ones. */
export const MAX_FINGERPRINT_ENTRIES = 200;

/** A path without where the runner checked it out: `/home/runner/work/r/r/src/a.ts` → `src/a.ts`. */
function normalisePath(path: string): string {
  const parts = path.replace(/\\/g, '/').split('/').filter(Boolean);
  return parts.slice(-2).join('/');
}

/** The fingerprint entries of a failure's signals: failing tests and error diagnostics (not frames, not bare names). */
export function failureFingerprint(signals: readonly Signal[]): Set<string> {
  const out = new Set<string>();
  for (const s of signals) {
    if (out.size >= MAX_FINGERPRINT_ENTRIES) break;
    if (s.kind === 'test') out.add(`test:${s.symbol ?? lineTemplate(s.message)}`);
    else if (s.kind === 'diagnostic' && s.severity !== 'warning' && s.weight >= 0.5) out.add(`diag:${s.tool ?? ''}:${s.path ? normalisePath(s.path) : ''}:${lineTemplate(s.message)}`);
  }
  return out;
}

/** The fingerprint of another run's log (the base branch's): read with the same bounds, same matchers. */
export async function fingerprintOfLog(source: LogSource): Promise<Set<string>> {
  const scan = await readLog(source);
  const layout = findFailingStep(scan.lines, scan.sections, scan.totalLines);
  const step = layout.failing;
  const lines = (step ? scan.lines.filter((l) => l.n >= step.startLine && l.n <= step.endLine) : scan.lines).slice(-MAX_STEP_LINES_FOR_MATCHERS);
  return failureFingerprint(extractSignals(lines).signals);
}

/** Whether the failure `ours` is in `theirs`: every one of our entries fails there too (and we have some). */
export function sameFailure(ours: ReadonlySet<string>, theirs: ReadonlySet<string>): boolean {
  if (!ours.size) return false;
  for (const e of ours) if (!theirs.has(e)) return false;
  return true;
}

/** The failing tests of a fingerprint, for the flaky check ("the same failing test failed then passed"). */
export function failingTests(fp: ReadonlySet<string>): string[] {
  return [...fp].filter((e) => e.startsWith('test:')).map((e) => e.slice('test:'.length));
}
