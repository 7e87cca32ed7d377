/**
 * New, pre-existing or flaky (issue 15), decided from what the door found about other runs of the same
 * job (github/history.ts) and from a passing log of it. Pure but for reading the logs it is handed, so
 * `diagnose` stays free of GitHub and the CLI's `--passing-log` takes the same path as the App.
 */
import type { DiagnosisHistory, LogLine, RunRef, Signal } from '../types.js';
import type { LogSource } from '../log/open-log.js';
import { failingTests, failureFingerprint, fingerprintOfLog, sameFailure } from '../extract/failure-fingerprint.js';
import { diffAgainstPassing, PassingLogMismatchError, type PassingDiff, type PassingSide } from './passing-diff.js';

/** What the door learned from the job's other runs; every field optional (each one cost a request). */
export interface HistoryFacts {
  /** The last successful run of the same job (its log, when fetched, comes as the request's passingLog). */
  lastGreen?: RunRef;
  /** The latest completed run of the job on the base branch (or at the PR's base commit) failed: its log. */
  baseFailing?: RunRef & { branch: string; log: LogSource };
  /** On the base branch, within its last runs, the job failed and later passed: the failed run's log. */
  baseFlip?: { failed: RunRef & { log: LogSource }; passed: RunRef; branch: string };
  /** Another attempt (or run) of the same SHA where the same job passed. */
  passedOnRetry?: RunRef;
  /** Why some fact is missing (no green run in range, logs expired, rate-limit budget low). */
  notes?: string[];
}

export interface HistoryInput {
  signals: readonly Signal[];
  /** The failing step's lines (the whole log's when no step failed) and the log's kept head. */
  stepLines: readonly LogLine[];
  head: readonly LogLine[];
  step?: string;
  jobName?: string;
  passingLog?: PassingSide;
  facts?: HistoryFacts;
}

export interface HistoryResult {
  history: DiagnosisHistory;
  passing?: PassingDiff;
  /** False for pre-existing and flaky failures: the PR's diff is not blamed for them. */
  blameDiff: boolean;
}

/**
 * The failure's status against its history. Order: another attempt of the same SHA passed (flaky), the
 * base fails the same way (pre-existing), the base flipped on the same test (flaky), a green run or a
 * passing log to compare with (new), else unknown. A passing log of another job throws
 * PassingLogMismatchError when the user handed it (the CLI); from the door it becomes a note.
 */
export async function compareWithHistory(input: HistoryInput): Promise<HistoryResult> {
  const facts = input.facts;
  const notes = [...(facts?.notes ?? [])];
  let passing: PassingDiff | undefined;
  if (input.passingLog) {
    try {
      passing = await diffAgainstPassing({ lines: input.stepLines, head: input.head, ...(input.step !== undefined ? { step: input.step } : {}), ...(input.jobName ? { jobName: input.jobName } : {}) }, input.passingLog);
      if (passing.note) notes.push(passing.note);
    } catch (e) {
      if (!facts || !(e instanceof Error)) throw e;
      notes.push(e instanceof PassingLogMismatchError ? e.message : `the passing log could not be read (${e.message.slice(0, 200)})`);
    }
  }
  const ours = failureFingerprint(input.signals);
  const base: Omit<DiagnosisHistory, 'status'> = {
    passingLog: !!passing,
    ...(passing ? { newLines: passing.newLines.size, seenLines: passing.seenLines.size, alignedBy: passing.alignedBy } : {}),
    ...(facts?.lastGreen ? { lastGreen: facts.lastGreen } : {}),
  };
  const done = (status: DiagnosisHistory['status'], extra: Partial<DiagnosisHistory> = {}): HistoryResult => ({
    history: { status, ...base, ...extra, ...(notes.length ? { note: notes.join('; ') } : {}) },
    ...(passing ? { passing } : {}),
    blameDiff: status !== 'pre-existing' && status !== 'flaky',
  });

  if (facts?.passedOnRetry) return done('flaky', { disagreeing: [facts.passedOnRetry] });
  if (facts?.baseFailing) {
    const theirs = await readFingerprint(facts.baseFailing.log, notes);
    const { log: _log, ...since } = facts.baseFailing;
    if (theirs && sameFailure(ours, theirs)) return done('pre-existing', { since });
  }
  if (facts?.baseFlip) {
    const theirs = await readFingerprint(facts.baseFlip.failed.log, notes);
    const tests = failingTests(ours);
    if (theirs && tests.length && tests.every((t) => theirs.has(`test:${t}`))) {
      const { log: _log, ...failed } = facts.baseFlip.failed;
      return done('flaky', { since: { ...failed, branch: facts.baseFlip.branch }, disagreeing: [failed, facts.baseFlip.passed] });
    }
  }
  if (passing || facts?.lastGreen) return done('new');
  return done('unknown');
}

async function readFingerprint(log: LogSource, notes: string[]): Promise<Set<string> | undefined> {
  try {
    return await fingerprintOfLog(log);
  } catch (e) {
    notes.push(`the base branch's log could not be read (${(e as Error).message.slice(0, 200)})`);
    return undefined;
  }
}
