import type { Candidate } from './candidate.js';
import type { Workspace } from '../repo/workspace.js';
import { changedBy, isChangedLine, type PrDiff } from '../repo/diff.js';

/** Starting confidence per cause, before the checks: a compiler's own location is the most trustworthy. */
const BASE: Record<Candidate['cause'], number> = {
  diagnostic: 0.7,
  test: 0.55,
  frame: 0.55,
  diff: 0.5,
  definition: 0.5,
  identifier: 0.3,
  // Never a candidate's cause: the LLM mode's pins are verified by locate/agent/report-tool.ts.
  model: 0.5,
};

export interface Verified extends Candidate {
  confidence: number;
  checks: string[];
}

/**
 * Checks a candidate against the checkout and turns the checks into confidence: the file exists, the
 * line is inside it, the identifier or message relates to the line, the line is in the PR's diff.
 * Returns null for a candidate that fails the existence checks (never pin a line that is not there).
 */
export function verifyCandidate(c: Candidate, ws: Workspace | undefined, diff: PrDiff | undefined): Verified | null {
  const checks: string[] = [];
  let conf = BASE[c.cause];
  // A changed line is only as good as its link to the failure (a frame on it, an import chain, the values).
  if (c.cause === 'diff') conf += Math.min(0.4, Math.max(0, c.score - 1.2) * 0.25);
  if (!ws) {
    return { ...c, confidence: clamp(conf - 0.1), checks: ['no checkout: path as the log names it, unverified'] };
  }
  const lines = ws.lines(c.file);
  if (!ws.fileSet.has(c.file)) return null;
  checks.push('file exists in the checkout');
  if (lines) {
    if (c.line < 1 || c.line > lines.length) return null;
    checks.push(`line ${c.line} of ${lines.length}`);
    const text = lines[c.line - 1] ?? '';
    if (text.trim() === '' && c.cause !== 'diagnostic') conf -= 0.1;
    const names = namesOf(c);
    if (names.some((n) => text.includes(n))) {
      conf += 0.1;
      checks.push('the named identifier is on the line');
    }
  }
  if (c.cause !== 'diff' && isChangedLine(diff, c.file, c.line)) {
    conf += 0.15;
    checks.push(`${changedBy(diff)} changed this line`);
  }
  if (c.cause === 'diff') checks.push(`${changedBy(diff)} changed this line`);
  if (c.ambiguous) {
    conf -= 0.2;
    checks.push('the log path matches more than one file');
  }
  if (c.mapped === 'unique-name') conf -= 0.05;
  return { ...c, confidence: clamp(conf), checks };
}

function namesOf(c: Candidate): string[] {
  const out: string[] = [];
  if (c.symbol && c.symbol.length >= 3 && c.cause !== 'test') out.push(c.symbol.split(/[.:#]/).pop()!);
  for (const m of c.message.matchAll(/['"`‘]([A-Za-z_$][\w$.]{2,})['"`’]/g)) out.push(m[1]!.split('.').pop()!);
  return out.filter((n) => n.length >= 3);
}

function clamp(x: number): number {
  return Math.max(0, Math.min(0.99, x));
}
