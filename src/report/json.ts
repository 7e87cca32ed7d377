import { DIAGNOSIS_VERSION, type Diagnosis, type DiagnosisHistory, type Finding, type RunRef } from '../types.js';
import { redactDiagnosis } from '../safety/redact.js';

/** Drops undefined values so optional keys are omitted rather than written as null. */
function defined<T extends Record<string, unknown>>(o: T): T {
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
  return o;
}

const round2 = (x: number): number => Math.round(x * 100) / 100;

function finding(f: Finding): Record<string, unknown> {
  return defined({
    file: f.file,
    line: f.line,
    endLine: f.endLine,
    column: f.column,
    message: f.message,
    confidence: round2(f.confidence),
    cause: f.cause,
    symbol: f.symbol,
    evidence: f.evidence.map((e) => defined({ line: e.line, text: e.text })),
  });
}

const run = (x: RunRef & { branch?: string }): Record<string, unknown> =>
  defined({ runId: x.runId, runNumber: x.runNumber, attempt: x.attempt, sha: x.sha, url: x.url, branch: x.branch });

/** `history` (version 2): the failure's status against other runs of the job, and the passing-log diff. */
function history(h: DiagnosisHistory): Record<string, unknown> {
  return defined({
    status: h.status,
    passingLog: h.passingLog,
    newLines: h.newLines,
    seenLines: h.seenLines,
    alignedBy: h.alignedBy,
    lastGreen: h.lastGreen ? run(h.lastGreen) : undefined,
    since: h.since ? run(h.since) : undefined,
    disagreeing: h.disagreeing?.map(run),
    note: h.note,
    blamedRange: h.blamedRange ? defined({ base: h.blamedRange.base, head: h.blamedRange.head, commits: h.blamedRange.commits, files: h.blamedRange.files, url: h.blamedRange.url, why: h.blamedRange.why, truncated: h.blamedRange.truncated }) : undefined,
  });
}

/**
 * The versioned machine contract (`--format json`): the Diagnosis with keys in a fixed order, optional
 * keys omitted, confidence rounded to 2 decimals, secrets redacted; 2-space indent and a final newline.
 */
export function renderJson(d: Diagnosis): string {
  const { diagnosis: r } = redactDiagnosis(d);
  const s = r.stats;
  const out = {
    version: DIAGNOSIS_VERSION,
    status: r.status,
    category: r.category,
    findings: r.findings.map(finding),
    evidence: r.evidence.map((e) => defined({ line: e.line, text: e.text, block: e.block })),
    evidenceBlocks: (r.evidenceBlocks ?? []).map((b) => ({ start: b.start, end: b.end, header: b.header, kind: b.kind, source: b.source })),
    failingStep: r.failingStep
      ? defined({ name: r.failingStep.name, startLine: r.failingStep.startLine, endLine: r.failingStep.endLine, format: r.failingStep.format })
      : null,
    summary: r.summary,
    stats: defined({
      bytes: s.bytes,
      lines: s.lines,
      signals: s.signals,
      candidates: s.candidates,
      filesInRepo: s.filesInRepo,
      changedFiles: s.changedFiles,
      ms: s.ms,
      truncated: s.truncated,
      middle: s.middle,
    }),
    ...(r.history ? { history: history(r.history) } : {}),
  };
  return `${JSON.stringify(out, null, 2)}\n`;
}
