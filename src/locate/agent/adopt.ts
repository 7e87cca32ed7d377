import type { Diagnosis, Finding } from '../../types.js';
import { isChangedLine, type PrDiff } from '../../repo/diff.js';
import { MAX_FINDINGS } from '../../limits.js';
import type { VerifiedReport } from './report-tool.js';
import { STRONG_PIN } from './bounds.js';

const clamp = (x: number) => Math.round(Math.max(0, Math.min(0.95, x)) * 100) / 100;
// A definition lead spans a whole function: the model's exact line inside it is a sharper pin, not agreement.
const covers = (f: Finding, r: VerifiedReport) =>
  f.file === r.file && (f.line === r.line || (f.cause !== 'definition' && r.line <= (f.endLine ?? f.line) && f.line <= (r.endLine ?? r.line)));

/**
 * Folds a verified report into the deterministic diagnosis, never making it worse:
 * - the model agrees with a deterministic finding: that finding (its cause, its evidence) moves to the
 *   top, with the model's explanation added as evidence;
 * - it pins elsewhere: a `model` finding whose confidence comes from checks (cited code on the line,
 *   the PR changed it), placed first only when the deterministic top is weak (below STRONG_PIN) and
 *   the checks beat it; otherwise second, so a strong deterministic pin is never displaced;
 * - the deterministic pass abstained: the model's finding is the pin.
 */
export function adoptReport(d: Diagnosis, r: VerifiedReport, o: { model: string; diff?: PrDiff; symbol?: string }): Diagnosis {
  const note = { text: `LLM investigation (${o.model}): ${r.explanation.replace(/\s+/g, ' ').slice(0, 500)}` };
  const fix = r.suggestedReplacement !== undefined ? [{ text: `Suggested replacement for line ${r.line}: ${r.suggestedReplacement.slice(0, 500)}` }] : [];
  const same = d.findings.findIndex((f) => covers(f, r));
  let findings: Finding[];
  if (same >= 0) {
    const f = d.findings[same]!;
    const agreed: Finding = { ...f, confidence: clamp(Math.max(f.confidence, f.confidence + 0.05)), evidence: [...f.evidence, note, ...fix] };
    // Agreement lifts a finding to the top only over a weak pin: a strong deterministic pin stays first.
    const top = d.findings[0]!;
    const lift = same === 0 || top.confidence < STRONG_PIN;
    const rest = d.findings.filter((_, i) => i !== same);
    findings = lift ? [agreed, ...rest] : [top, agreed, ...rest.slice(1)];
  } else {
    const changed = isChangedLine(o.diff, r.file, r.line);
    const checks = [...r.checks, ...(changed ? ['the PR changed this line'] : [])];
    const mine: Finding = {
      file: r.file,
      line: r.line,
      ...(r.endLine !== undefined ? { endLine: r.endLine } : {}),
      message: r.explanation.split('\n')[0]!.slice(0, 300),
      confidence: clamp(0.5 + 0.1 + (changed ? 0.15 : 0)),
      cause: 'model',
      ...(o.symbol ? { symbol: o.symbol } : {}),
      evidence: [note, ...fix, ...checks.map((text) => ({ text }))],
    };
    const top = d.findings[0];
    const displace = !top || (top.confidence < STRONG_PIN && mine.confidence > top.confidence);
    findings = displace ? [mine, ...d.findings] : [top, mine, ...d.findings.slice(1)];
  }
  return { ...d, status: 'located', findings: findings.slice(0, MAX_FINDINGS) };
}
