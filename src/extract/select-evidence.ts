import type { Category, EvidenceLine, LogLine, Signal } from '../types.js';
import type { StepLayout } from '../log/find-failing-step.js';
import type { Candidate } from '../locate/candidate.js';
import { MAX_EVIDENCE_LINES } from '../limits.js';

const RUNNER_NOISE = /^##\[error\]Process completed with exit code \d+\.?$|^##\[(?:group|endgroup)\]/;
const MAX_RELATED_PER_SIGNAL = 6;
/** Lines sampled from the end of the log to tell a binary file from a log. */
const BINARY_SAMPLE_LINES = 2000;

export interface EvidenceInput {
  signals: readonly Signal[];
  /** The pinned candidates (best first); empty when abstaining. */
  findings: readonly Pick<Candidate, 'signals'>[];
  layout: StepLayout;
  lines: readonly LogLine[];
  category: Category;
  /** The log decodes to garbage (a binary file): nothing in it is worth quoting. */
  binary?: boolean;
  /** The diff against a passing log of the job (evidence/passing-diff.ts): new lines are preferred, seen ones dropped. */
  passing?: { newLines: ReadonlySet<number>; seenLines: ReadonlySet<number> };
}

/**
 * The log lines a person would quote in a bug report: the lines behind the pin (with the few lines that
 * belong to them, such as an expected/actual pair), then the other errors of the failing step, in log
 * order, at most MAX_EVIDENCE_LINES. Never the runner's own "Process completed with exit code" line
 * when something better exists.
 */
export function selectEvidence(input: EvidenceInput): EvidenceLine[] {
  const text = new Map(input.lines.map((l) => [l.n, l.text] as const));
  const picked = new Set<number>();
  const add = (n: number) => {
    if (picked.size >= MAX_EVIDENCE_LINES || picked.has(n)) return;
    const t = text.get(n);
    if (t === undefined || t.trim() === '' || RUNNER_NOISE.test(t)) return;
    // A line the passing run printed too is not a cause (issue 15).
    if (input.passing?.seenLines.has(n)) return;
    picked.add(n);
  };
  const addSignal = (s: Signal) => {
    add(s.logLine);
    for (const r of (s.related ?? []).slice(0, MAX_RELATED_PER_SIGNAL)) add(r);
  };
  for (const f of input.findings) for (const s of f.signals) addSignal(s);
  const strong = input.signals
    .filter((s) => s.kind !== 'identifier' && s.kind !== 'frame' && s.severity !== 'warning' && s.weight >= 0.5)
    .filter((s) => input.category === 'unknown' || !s.category || s.category === input.category);
  for (const s of strong) addSignal(s);
  if (input.binary) return [];
  if (input.passing?.newLines.size) addNewLines(input.passing.newLines, picked, add, text);
  if (picked.size === 0) {
    // No toolchain spoke: the error-looking lines the generic matcher kept.
    for (const s of input.signals) if (s.tool === 'generic') add(s.logLine);
  }
  if (picked.size === 0) {
    // Nothing recognised: the runner's own error lines, and what was printed just before the step failed.
    const step = input.layout.failing;
    for (const n of step?.errorLines ?? []) add(n);
    const end = step?.errorLines[step.errorLines.length - 1] ?? input.lines[input.lines.length - 1]?.n ?? 0;
    const before = input.lines.filter((l) => l.n < end && l.text.trim() !== '' && !RUNNER_NOISE.test(l.text)).slice(-5);
    for (const l of before) add(l.n);
    if (picked.size === 0) for (const n of step?.errorLines ?? []) picked.add(n);
  }
  return [...picked].sort((a, b) => a - b).map((n) => ({ line: n, text: text.get(n) ?? '' }));
}

/** New lines this close to a picked one belong to the same report (the rest of a message, its symbol/location). */
const NEW_LINE_NEIGHBOURHOOD = 1;
/** Words that make a new line an error report of any toolchain (the passing run printed none of it). */
const ERROR_WORDS = /\b(?:error|errors|fail(?:ed|ure|s)?|exception|assert(?:ion)?\w*|expected|fatal|panic|violations?|cannot|undefined|not found)\b/i;
/**
 * New lines that say only that the build failed, not why: stack frames (the matchers quote the ones that
 * matter) and the build tools' closing boilerplate ("BUILD FAILED in 1m", "1 error", "> Task :x FAILED").
 */
const NOT_WHY = /^\s+at |^\s*\d+ (?:errors?|warnings?|failures?)$|^BUILD FAIL|^FAILURE: Build failed|^> Task \S+ FAILED$|^\* What went wrong:$|^\[(?:INFO|ERROR)\] BUILD FAILURE|^\[ERROR\] (?:-> \[Help|Re-run Maven|To see the full stack|For more information|$)|^npm ERR! (?:A complete log|code|errno|path|command|$)/;

/**
 * With a passing log (issue 15): the new lines that read as errors, first (what the failing run printed
 * and the passing one never did); then new lines next to what the matchers picked; when nothing else
 * spoke, the last new lines of the failing step, printed just before it stopped.
 */
function addNewLines(newLines: ReadonlySet<number>, picked: Set<number>, add: (n: number) => void, text: ReadonlyMap<number, string>): void {
  const fresh = [...newLines].sort((a, b) => a - b);
  for (const n of fresh) {
    const t = text.get(n) ?? '';
    if (ERROR_WORDS.test(t) && !NOT_WHY.test(t)) add(n);
  }
  if (picked.size === 0) {
    for (const n of fresh.slice(-MAX_EVIDENCE_LINES * 2).reverse()) add(n);
    return;
  }
  const near = (n: number): boolean => [...picked].some((p) => Math.abs(p - n) <= NEW_LINE_NEIGHBOURHOOD);
  for (const n of fresh) if (near(n)) add(n);
}

/** Whether the end of a log is decoding garbage: many U+FFFD replacement characters (a binary file). */
export function looksBinary(lines: readonly LogLine[]): boolean {
  let bad = 0;
  let total = 0;
  for (const l of lines.slice(-BINARY_SAMPLE_LINES)) {
    total += l.text.length;
    for (let i = 0; i < l.text.length; i++) if (l.text.charCodeAt(i) === 0xfffd) bad++;
  }
  return total > 0 && bad / total > 0.05;
}
