/**
 * The diff against a passing log of the same job (DESIGN.md §3a, issue 15): which lines of the failing
 * step are new, and which were printed by a run that passed (warnings, deprecation notes, retries that
 * worked, the same noise) and so are not causes.
 *
 * Not a line diff (O(n·m) and meaningless across runs): each line of the failing step is reduced to its
 * masked template hash (evidence/templates.ts); the passing log is then streamed once, and only the
 * lines of the step with the same name are masked and looked up. Memory is the failing step's hashes
 * (≤ MAX_STEP_LINES_FOR_MATCHERS) whatever the size of the passing log; time is one pass over it.
 */
import type { LogLine } from '../types.js';
import { openLog, type LogSource } from '../log/open-log.js';
import { cleanLine } from '../log/clean.js';
import { findMarkers, mayHoldMarker } from '../log/markers.js';
import { lineTemplate, templateHash } from './templates.js';
import { UsageError } from '../errors.js';
import { FULL_KEEP_BYTES, MAX_LOG_LINE_BYTES } from '../limits.js';
import { jobIdentity, sameJob, type JobIdentity } from './job-identity.js';

/** The failing log's side, as diagnose has it: its lines, and the step that failed (null: the whole log). */
export interface FailingSide {
  /** The failing step's lines (or the whole log's when no step failed). */
  lines: readonly LogLine[];
  /** The kept head of the failing log, where the runner names the job. */
  head: readonly LogLine[];
  /** The failing step's name when the log has named steps; undefined aligns on the whole passing log. */
  step?: string;
  /** Job name the door knows (the App's "<workflow> / <job>"); checked against the passing log's. */
  jobName?: string;
}

export interface PassingSide {
  source: LogSource;
  /** Job name the door knows for the passing log (the same job in the last green run). */
  jobName?: string;
}

export interface PassingDiff {
  /** How the two logs were aligned: by the failing step's name, on the whole log, or not at all. */
  alignedBy: 'step' | 'log' | 'none';
  /** Failing-log line numbers whose masked template the aligned passing lines never printed. */
  newLines: Set<number>;
  /** Failing-log line numbers the passing log printed too: never causes. */
  seenLines: Set<number>;
  passing: { bytes: number; lines: number };
  /** One line for people when the diff said less than it could (no such step, log cut). */
  note?: string;
}

/** Lines that are the runner's frame, not the job's output: never new, never evidence. */
const RUNNER_FRAME = /^##\[(?:group|endgroup)\]|^##\[error\]Process completed with exit code \d+\.?$/;
/** A second, independent template hash (any odd constant but FNV's basis): two 32-bit hashes must both match. */
const SECOND_SEED = 0x9e3779b1;

/** A passing log from another job: the diff would be noise, so it is refused (exit code 2 in the CLI). */
export class PassingLogMismatchError extends UsageError {
  constructor(
    readonly failing: JobIdentity,
    readonly passing: JobIdentity,
  ) {
    super(`the passing log is not of the same job (failing: ${describe(failing)}; passing: ${describe(passing)}): pass the log of a passing run of the same workflow and job`);
  }
}

function describe(id: JobIdentity): string {
  return [id.job ? `job "${id.job.slice(0, 120)}"` : '', id.workflow ? `workflow ${id.workflow.slice(0, 160)}` : ''].filter(Boolean).join(', ') || 'unnamed';
}

/**
 * Marks each line of the failing step new or seen against the passing log's step of the same name
 * (the whole passing log when the failing log has no named steps, or when no step of that name exists
 * and the passing log is small enough to have been masked whole). Throws PassingLogMismatchError when
 * the two logs name different jobs.
 */
export async function diffAgainstPassing(failing: FailingSide, passing: PassingSide): Promise<PassingDiff> {
  // 1. The failing step's templates: hash → the line numbers that print it.
  const wanted = new Map<number, { h2: number; lines: number[] }[]>();
  const order: { h2: number; lines: number[] }[] = [];
  for (const l of failing.lines) {
    if (RUNNER_FRAME.test(l.text)) continue;
    const t = lineTemplate(l.text);
    if (!t) continue;
    const h1 = templateHash(t);
    const h2 = templateHash(t, SECOND_SEED);
    const bucket = wanted.get(h1) ?? [];
    let e = bucket.find((x) => x.h2 === h2);
    if (!e) {
      e = { h2, lines: [] };
      bucket.push(e);
      order.push(e);
      wanted.set(h1, bucket);
    }
    e.lines.push(l.n);
  }
  const inStep = new Set<{ h2: number; lines: number[] }>();
  const inLog = new Set<{ h2: number; lines: number[] }>();

  // 2. One pass over the passing log: the job's identity from its head, the lines of the aligned step.
  const failingId = jobIdentity(failing.head.map((l) => l.text), failing.jobName);
  const headTexts: string[] = [];
  let checked = false;
  const check = (): void => {
    checked = true;
    const passingId = jobIdentity(headTexts, passing.jobName);
    if (!sameJob(failingId, passingId)) throw new PassingLogMismatchError(failingId, passingId);
  };
  const tracker = new StepTracker();
  let stepSeen = false;
  let lines = 0;
  const state = { capped: false };
  let bytes = 0;
  for await (const raw of splitLines(openLog(passing.source, state))) {
    lines++;
    bytes += raw.length + 1;
    const text = cleanLine(raw);
    tracker.feed(raw, text, lines);
    if (!checked) {
      headTexts.push(text);
      if (headTexts.length >= IDENTITY_HEAD_LINES || tracker.started) check();
    }
    const inTarget = failing.step !== undefined && tracker.isIn(failing.step);
    if (inTarget) stepSeen = true;
    // Outside the aligned step, masking costs a pass over every line: only done while the log is small
    // enough for the whole-log fallback to be worth it.
    if (!inTarget && bytes > FULL_KEEP_BYTES) continue;
    if (RUNNER_FRAME.test(text)) continue;
    const t = lineTemplate(text);
    if (!t) continue;
    const bucket = wanted.get(templateHash(t));
    if (!bucket) continue;
    const h2 = templateHash(t, SECOND_SEED);
    const e = bucket.find((x) => x.h2 === h2);
    if (!e) continue;
    inLog.add(e);
    if (inTarget) inStep.add(e);
  }
  if (!checked) check();

  // 3. New or seen, against the step when it was there, else the whole (small) log.
  const alignedBy: PassingDiff['alignedBy'] =
    failing.step !== undefined && stepSeen ? 'step' : bytes <= FULL_KEEP_BYTES ? 'log' : 'none';
  const seen = alignedBy === 'step' ? inStep : inLog;
  const out: PassingDiff = { alignedBy, newLines: new Set(), seenLines: new Set(), passing: { bytes, lines } };
  if (alignedBy !== 'none') for (const e of order) for (const n of e.lines) (seen.has(e) ? out.seenLines : out.newLines).add(n);
  const notes: string[] = [];
  if (failing.step !== undefined && !stepSeen) notes.push(`no step named ${JSON.stringify(failing.step.slice(0, 80))} in the passing log${alignedBy === 'log' ? ': compared with the whole log' : ''}`);
  if (state.capped) notes.push('the passing log was cut at the read limit');
  if (notes.length) out.note = notes.join('; ');
  return out;
}

/** Lines of the passing log read for the job's identity (the runner prints it in "Set up job"). */
const IDENTITY_HEAD_LINES = 200;

/**
 * Which steps a streamed line is in, by the same markers the step finder reads (log/find-failing-step.ts):
 * Actions `##[group]Run <name>` opens a step and the post-job cleanup ends them; GitLab sections and
 * Travis folds open and close by name (a Travis timer is named by the `$ command` on its start line).
 */
class StepTracker {
  private readonly open: string[] = [];
  /** True once the first step opened: the runner's preamble (where the job is named) is over. */
  started = false;

  feed(raw: string, text: string, _n: number): void {
    if (text.startsWith('##[group]Run ')) {
      this.open.length = 0;
      this.open.push(text.slice('##[group]Run '.length).trim());
      this.started = true;
      return;
    }
    if (text === 'Post job cleanup.' || text.startsWith('##[group]Post ')) {
      this.open.length = 0;
      return;
    }
    if (!mayHoldMarker(raw)) return;
    for (const m of findMarkers(raw, 0)) {
      const name = m.timer ? (/^\$ (.+)$/.exec(text)?.[1]?.trim() ?? m.name) : m.name;
      if (m.kind === 'start') {
        this.open.push(name);
        this.started = true;
      } else {
        const i = m.timer ? this.open.length - 1 : this.open.lastIndexOf(name);
        if (i >= 0) this.open.splice(i, 1);
      }
    }
  }

  isIn(name: string): boolean {
    return this.open.includes(name);
  }
}

/** Raw lines of a byte stream (without `\n`); a line longer than MAX_LOG_LINE_BYTES is cut there. */
async function* splitLines(chunks: AsyncIterable<Buffer>): AsyncGenerator<string> {
  let carry: Buffer | null = null;
  for await (const chunk of chunks) {
    let buf: Buffer = carry ? Buffer.concat([carry, chunk]) : chunk;
    carry = null;
    let start = 0;
    for (;;) {
      const nl = buf.indexOf(10, start);
      if (nl < 0) break;
      yield buf.toString('utf8', start, Math.min(nl, start + MAX_LOG_LINE_BYTES));
      start = nl + 1;
    }
    buf = buf.subarray(start);
    // An endless line: keep its head only, so the carry stays bounded.
    carry = buf.length > MAX_LOG_LINE_BYTES ? Buffer.from(buf.subarray(0, MAX_LOG_LINE_BYTES)) : buf.length ? Buffer.from(buf) : null;
  }
  if (carry?.length) yield carry.toString('utf8');
}
