import type { Category, Signal } from '../types.js';
import { mapLogPath, type Workspace } from '../repo/workspace.js';
import { isFrame } from '../evidence/vocabulary.js';
import { MAX_NAMED_FILE_SIGNALS } from '../limits.js';

/**
 * Places written in forms nobody listed. A tool no fixture recorded still names the file it read and prints
 * the line near it, each in its own syntax: the flat assembler's `src/a.asm [21]:`, Faust's `a.dsp : 30 :
 * ERROR`, ATS' `a.dats: 3178(line=129, offs=50)`, acorn's `(index.js 57:32)`. The location forms of
 * src/evidence/read-locations.ts know the file only by its shape, so each syntax needs a form of its own;
 * with the checkout open, a token that names one of its files says by itself that a place is meant, and the
 * number printed next to it is the line, whatever the punctuation between.
 *
 * Read only when no listed form placed the failure in the checkout: a form is read more precisely. What is
 * read here is a lead like any evidence location (mapped, verified and ranked with the PR's diff as usual).
 */

/** A run of the characters paths are made of; trailing punctuation is the sentence's, not the path's. */
const TOKEN = /[\w.@~+\/\\-]{3,}/g;
/** A token that looks like a file: a directory in it, or a name with an extension. */
const FILE_LIKE = /\/|\.[A-Za-z][\w+-]{0,9}$/;
/** A web address or a host: never a checkout file, even when its last name is one (`…/blob/main/a.c`). */
const URL_BEFORE = /(?:https?:|\/\/|www\.)\S*$/;
/** What may stand between a file and its line: punctuation, spaces and brackets, at most this many characters. */
const GAP = /^[\s:,;()[\]{}'"`=#@|-]{0,4}$/;
/** A number that counts or measures something: not a line (`a.c: 3 errors`, `a.js 12ms`, `a.txt 40%`). */
const COUNTED = /^\s*(?:%|[kKMG]?i?B\b|ms\b|s\b|sec|second|minute|error|warning|problem|issue|file|test|spec|case|byte|line[s]?\s+(?:of|in|long)|char|item|match|occurrence|time)/i;
/** A number labelled as a line, anywhere on the report's line (`line 129`, `line=129`, `Line: 12`, `l.12`). */
const LABELLED_LINE = /\b(?:line|ln)\s*(?:[=:#]|no\.?|number)?\s*(\d{1,7})\b|(?:^|[\s(,])l\.(\d{1,7})\b/gi;
/** Reports read per line, and the characters of a line read: a report names its file near its start. */
const TOKENS_PER_LINE = 3;
const LINE_CHARS = 600;

export interface NamedFileLine {
  n: number;
  text: string;
  /** For a line next to a block, not in it (the step's command naming its input): the block's own report. */
  report?: string;
}

/** Lines read around each evidence block: a tool that heads its report with the place (`src/a.asm [21]:` over the
 * source line and `error: …`) or ends it with one (`Location: in a.conf: 25:3`) prints it next to the words the block holds. */
const AROUND_BLOCK = 8;
/** A block's words kept as the report of a line next to it. */
const REPORT_CHARS = 500;

/** The evidence blocks' lines and those just around them, in the failing step, each once, in log order. */
export function linesAroundBlocks(blocks: readonly { start: number; end: number }[], lines: readonly NamedFileLine[]): NamedFileLine[] {
  // each block's words, gathered once
  const reports = blocks.map((b) => lines.filter((x) => x.n >= b.start && x.n <= b.end).map((x) => x.text.trim()).join(' ').slice(0, REPORT_CHARS));
  const out: NamedFileLine[] = [];
  for (const l of lines) {
    const near = blocks.findIndex((b) => l.n >= b.start - AROUND_BLOCK && l.n <= b.end + AROUND_BLOCK);
    if (near < 0) continue;
    if (blocks.some((b) => l.n >= b.start && l.n <= b.end)) out.push({ n: l.n, text: l.text });
    else out.push({ n: l.n, text: l.text, ...(reports[near] ? { report: reports[near] } : {}) });
  }
  return out;
}

/**
 * Signals for the checkout files the evidence names, each with the line printed next to it (a labelled
 * line first, else the first number that fits in the file just after its name). A file named with no number
 * becomes a signal without a line (from-signals then takes the PR's change in it, or drops it).
 */
export function signalsNamingCheckoutFiles(evidence: readonly NamedFileLine[], ws: Workspace, category: Category): Signal[] {
  const out: Signal[] = [];
  const named = new Map<string, number>();
  for (const { n, text: raw, report } of evidence) {
    if (out.length >= MAX_NAMED_FILE_SIGNALS) break;
    const text = raw.slice(0, LINE_CHARS);
    let tokens = 0;
    for (const m of text.matchAll(TOKEN)) {
      if (tokens >= TOKENS_PER_LINE || out.length >= MAX_NAMED_FILE_SIGNALS) break;
      const token = m[0].replace(/[.:,;-]+$/, '');
      const at = m.index ?? 0;
      if (!FILE_LIKE.test(token) || URL_BEFORE.test(text.slice(Math.max(0, at - 40), at))) continue;
      const mapped = mapLogPath(ws, token);
      if (!mapped || mapped.alternatives.length) continue;
      tokens++;
      const length = fileLength(ws, mapped.file);
      const line = lineNear(text, at + token.length, length);
      named.set(mapped.file, (named.get(mapped.file) ?? 0) + 1);
      out.push({
        kind: isFrame(text) ? 'frame' : 'diagnostic',
        path: token,
        ...(line !== undefined ? { line } : {}),
        // what the report says, for matching it against the PR's change in that file (a command only names its input)
        message: (line === undefined && report !== undefined ? report : text).trim().slice(0, 500),
        tool: 'evidence',
        ...(category !== 'unknown' ? { category } : {}),
        severity: 'error',
        weight: (line !== undefined ? NAMED_LINE_WEIGHT : NAMED_FILE_WEIGHT) + (SEVERE.test(text) ? SEVERE_LIFT : 0),
        logLine: n,
      });
    }
  }
  // One file named, its line printed on a line of its own (`[line 280]: 'port ssh'`, Vim's `line   38:`).
  if (named.size === 1 && !out.some((s) => s.line !== undefined)) {
    const [file] = named.keys();
    const length = fileLength(ws, file!);
    for (const { n, text } of evidence) {
      const line = labelledLine(text.slice(0, LINE_CHARS), length);
      if (line === undefined) continue;
      out.push({ kind: 'diagnostic', path: file!, line, message: text.trim().slice(0, 500), tool: 'evidence',
        ...(category !== 'unknown' ? { category } : {}), severity: 'error', weight: NAMED_LINE_WEIGHT, logLine: n });
      break;
    }
  }
  return out;
}

/** Below a listed form's weight (0.5–0.7): the number was read by position, not by a form that says it is a line. */
const NAMED_LINE_WEIGHT = 0.45;
const NAMED_FILE_WEIGHT = 0.3;
/**
 * A line that says it reports a fault (`%Warning-WIDTH: sub.v:20:18: …`, `error: …`) is the report; a file named on a
 * line without one is context (Verilator's `top.v:33:1: ... note: In file included from top.v`, a source excerpt).
 */
const SEVERE = /\b(?:error|fatal|warning|failed|failure|exception)\b/i;
const SEVERE_LIFT = 0.05;

function fileLength(ws: Workspace, file: string): number {
  const lines = ws.lines(file);
  if (!lines) return 0;
  return lines[lines.length - 1] === '' ? lines.length - 1 : lines.length;
}

/** The line a report gives next to a file's name: a labelled one anywhere on the line, else the first number just after the name. */
function lineNear(text: string, from: number, length: number): number | undefined {
  const labelled = labelledLine(text, length);
  if (labelled !== undefined) return labelled;
  const rest = text.slice(from);
  const m = /\d{1,7}/.exec(rest);
  if (!m || !GAP.test(rest.slice(0, m.index))) return undefined;
  const after = rest.slice(m.index + m[0].length);
  // a version (`a.js 1.2.3`) or a count (`a.c: 3 errors`) is not a line
  if (/^\.\d+\./.test(after) || COUNTED.test(after)) return undefined;
  const line = Number(m[0]);
  return line >= 1 && line <= length ? line : undefined;
}

function labelledLine(text: string, length: number): number | undefined {
  for (const m of text.matchAll(LABELLED_LINE)) {
    const line = Number(m[1] ?? m[2]);
    if (line >= 1 && line <= length && !COUNTED.test(text.slice((m.index ?? 0) + m[0].length))) return line;
  }
  return undefined;
}
