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
  /** Bytes of the passing log read; lines decoded (every line up to FULL_KEEP_BYTES, past that only candidates). */
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
  const wanted = new Map<number, Wanted[]>();
  const order: Wanted[] = [];
  // The longest word of each template: a passing line without any of them cannot print one (see anchorOf).
  const anchors = new Set<string>();
  for (const l of failing.lines) {
    if (RUNNER_FRAME.test(l.text)) continue;
    const t = lineTemplate(l.text);
    if (!t) continue;
    const h1 = templateHash(t);
    const h2 = templateHash(t, SECOND_SEED);
    const bucket = wanted.get(h1) ?? [];
    let e = bucket.find((x) => x.h2 === h2);
    if (!e) {
      const anchor = anchorOf(t);
      e = { h2, lines: [], anchored: anchor !== undefined };
      if (anchor) anchors.add(anchor);
      bucket.push(e);
      order.push(e);
      wanted.set(h1, bucket);
    }
    e.lines.push(l.n);
  }
  const inStep = new Set<Wanted>();
  const inLog = new Set<Wanted>();

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
  // Past FULL_KEEP_BYTES only lines holding a step marker or an anchor are decoded at all (found with
  // Buffer.indexOf per chunk, memchr-fast); with too many anchors, every line is (and checked one by one).
  const needles = anchors.size <= MAX_ANCHOR_NEEDLES ? [...STEP_NEEDLES, ...anchors].map((a) => Buffer.from(a)) : undefined;
  // Every line is masked only while a template without a word is looked for (and the log is small).
  const fullUntil = order.some((e) => !e.anchored) ? FULL_KEEP_BYTES : 0;
  const total = { lines: 0, bytes: 0 };
  for await (const { raw, n, offset } of splitLines(openLog(passing.source, state), total, fullUntil, needles)) {
    lines = n;
    bytes = offset + raw.length + 1;
    // Cleaning is only needed where a step may start, for the job's name, and for lines that may match.
    let text = raw.includes('##[') || raw.includes('Post job') || mayHoldMarker(raw) || !checked ? cleanLine(raw) : undefined;
    if (text !== undefined) tracker.feed(raw, text, lines);
    if (!checked) {
      headTexts.push(text!);
      if (headTexts.length >= IDENTITY_HEAD_LINES || tracker.started) check();
    }
    const inTarget = failing.step !== undefined && tracker.isIn(failing.step);
    if (inTarget) stepSeen = true;
    // Outside the aligned step, masking costs a pass over every line: only done while the log is small
    // enough for the whole-log fallback to be worth it.
    if (!inTarget && bytes > FULL_KEEP_BYTES) continue;
    // A line is masked only when it holds one of the failing templates' words.
    if (bytes > fullUntil && !holdsAnchor(raw.includes('\x1b') ? (text ??= cleanLine(raw)) : raw, anchors)) continue;
    text ??= cleanLine(raw);
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
  lines = Math.max(lines, total.lines);
  bytes = Math.max(bytes, total.bytes);

  // 3. New or seen, against the step when it was there, else the whole (small) log.
  const alignedBy: PassingDiff['alignedBy'] =
    failing.step !== undefined && stepSeen ? 'step' : bytes <= FULL_KEEP_BYTES ? 'log' : 'none';
  const seen = alignedBy === 'step' ? inStep : inLog;
  const out: PassingDiff = { alignedBy, newLines: new Set(), seenLines: new Set(), passing: { bytes, lines } };
  // A template without a word was only looked for while the log was small: past that, neither new nor seen.
  const looked = (e: Wanted): boolean => e.anchored || bytes <= FULL_KEEP_BYTES;
  if (alignedBy !== 'none') for (const e of order) if (looked(e) || seen.has(e)) for (const n of e.lines) (seen.has(e) ? out.seenLines : out.newLines).add(n);
  const notes: string[] = [];
  if (failing.step !== undefined && !stepSeen) notes.push(`no step named ${JSON.stringify(failing.step.slice(0, 80))} in the passing log${alignedBy === 'log' ? ': compared with the whole log' : ''}`);
  if (state.capped) notes.push('the passing log was cut at the read limit');
  if (notes.length) out.note = notes.join('; ');
  return out;
}

interface Wanted {
  h2: number;
  /** Failing-log lines with this template. */
  lines: number[];
  /** The template has a word (anchorOf): a passing line can be prefiltered for it. */
  anchored: boolean;
}

const PLACEHOLDER = /<(?:ts|time|uuid|hex|tmp|dur|path)>/g;
const WORD = /[A-Za-z]{3,}/g;

/**
 * The longest word (3+ letters) of a template outside its placeholders. Masking replaces spans with
 * placeholders and never changes letters it keeps, so any line with this template has this word in its
 * raw text, as a whole run of letters: a cheap prefilter before masking a line of a huge passing log.
 */
function anchorOf(template: string): string | undefined {
  let best: string | undefined;
  for (const m of template.replace(PLACEHOLDER, ' ').matchAll(WORD)) if (!best || m[0].length > best.length) best = m[0];
  return best;
}

/** Whether `raw` holds one of the anchors as a whole run of letters. */
function holdsAnchor(raw: string, anchors: ReadonlySet<string>): boolean {
  WORD.lastIndex = 0;
  for (let m = WORD.exec(raw); m; m = WORD.exec(raw)) if (anchors.has(m[0])) return true;
  return false;
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

/** Lines that may open or close a step: always decoded, so the tracker sees every boundary. */
const STEP_NEEDLES = ['##[', 'Post job', 'section_', 'travis_'];
/** Anchors searched chunk by chunk past FULL_KEEP_BYTES: each is one memchr-speed pass over the chunk. */
const MAX_ANCHOR_NEEDLES = 48;

/**
 * Raw lines of a byte stream (without `\n`; a line longer than MAX_LOG_LINE_BYTES is cut there), with
 * their byte offset and a count of the lines yielded. With `needles`, past `fullUntil` bytes only the
 * lines holding one of them are decoded and yielded; the others are skipped.
 */
async function* splitLines(chunks: AsyncIterable<Buffer>, total: { lines: number; bytes: number }, fullUntil: number, needles?: readonly Buffer[]): AsyncGenerator<{ raw: string; n: number; offset: number }> {
  let carry: Buffer | null = null;
  let n = 0;
  let offset = 0;
  for await (const chunk of chunks) {
    let buf: Buffer = carry ? Buffer.concat([carry, chunk]) : chunk;
    carry = null;
    const end = buf.lastIndexOf(10) + 1;
    if (needles && offset >= fullUntil && end > 0) {
      // Which lines hold a needle: their starts, sorted; the newlines in between are only counted.
      const starts = new Set<number>();
      for (const needle of needles) {
        for (let at = buf.indexOf(needle, 0); at >= 0 && at < end; at = buf.indexOf(needle, at + needle.length)) starts.add(buf.lastIndexOf(10, at) + 1);
      }
      // Lines in between are skipped uncounted: counting newlines one indexOf at a time cost more than the rest.
      for (const s of [...starts].sort((a, b) => a - b)) {
        const nl = buf.indexOf(10, s);
        n++;
        yield { raw: buf.toString('utf8', s, Math.min(nl, s + MAX_LOG_LINE_BYTES)), n, offset: offset + s };
      }
    } else {
      let start = 0;
      for (;;) {
        const nl = buf.indexOf(10, start);
        if (nl < 0) break;
        n++;
        yield { raw: buf.toString('utf8', start, Math.min(nl, start + MAX_LOG_LINE_BYTES)), n, offset: offset + start };
        start = nl + 1;
      }
    }
    offset += end;
    total.lines = n;
    total.bytes = offset;
    buf = buf.subarray(end);
    // An endless line: keep its head only, so the carry stays bounded.
    if (buf.length > MAX_LOG_LINE_BYTES) offset += buf.length - MAX_LOG_LINE_BYTES;
    carry = buf.length > MAX_LOG_LINE_BYTES ? Buffer.from(buf.subarray(0, MAX_LOG_LINE_BYTES)) : buf.length ? Buffer.from(buf) : null;
  }
  if (carry?.length) {
    n++;
    total.lines = n;
    total.bytes = offset + carry.length;
    yield { raw: carry.toString('utf8'), n, offset };
  }
}
