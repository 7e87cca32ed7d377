import type { Cause, Signal } from '../types.js';

/** A place in the repo that might be the pin, before verification turns its score into confidence. */
export interface Candidate {
  file: string;
  line: number;
  endLine?: number;
  column?: number;
  cause: Cause;
  /** Ranking score: only its order matters. */
  score: number;
  message: string;
  symbol?: string;
  signals: Signal[];
  /** Why this candidate scored what it did, in words (goes to the trace and the evidence). */
  notes: string[];
  /** How the log path was mapped; 'none' when there is no repo to map onto. */
  mapped: 'exact' | 'suffix' | 'unique-name' | 'search' | 'diff' | 'none';
  ambiguous?: boolean;
  /** For a stack frame: 0 for the innermost frame in the repository, 1 for its caller, ... */
  depth?: number;
  /** One of the log's own locations (a diagnostic, a failing test, a frame) was merged into this candidate from another route. */
  logLocated?: boolean;
}

const LOG_LOCATIONS: ReadonlySet<Cause> = new Set(['diagnostic', 'test', 'frame']);

/** Merges candidates on the same file:line, keeping the best score and all the evidence. */
export function mergeCandidates(cands: Candidate[]): Candidate[] {
  const byKey = new Map<string, Candidate>();
  /** The routes already counted for each line: a route corroborates once, however often the log repeats it. */
  const routes = new Map<string, Set<Cause>>();
  for (const c of cands) {
    const key = `${c.file}:${c.line}`;
    const prev = byKey.get(key);
    if (!prev) {
      byKey.set(key, { ...c, signals: [...c.signals], notes: [...c.notes] });
      routes.set(key, new Set([c.cause]));
      continue;
    }
    const [hi, lo] = prev.score >= c.score ? [prev, c] : [c, prev];
    // Two independent routes to the same line (a frame and the diff) make it likelier, a little; the same
    // route twice (a diagnostic printed twice, two errors on one line, 23 tests failing through one helper's
    // frame) does not: each route adds its bonus once.
    const seen = routes.get(key)!;
    const bonus = !seen.has(lo.cause) || !seen.has(hi.cause) ? Math.min(0.15, lo.score * 0.2) : 0;
    seen.add(lo.cause).add(hi.cause);
    const merged: Candidate = { ...hi, score: hi.score + bonus, signals: [...hi.signals, ...lo.signals], notes: [...hi.notes, ...lo.notes] };
    if (LOG_LOCATIONS.has(lo.cause) || hi.logLocated || lo.logLocated) merged.logLocated = true;
    // Say why in the tool's own words when the log has them ("TypeError: …"), not "changed by this PR".
    if (!hi.signals.length && lo.signals.length) {
      merged.message = lo.message;
      merged.notes.unshift(hi.message);
    }
    merged.column ??= lo.column;
    merged.symbol ??= lo.symbol;
    byKey.set(key, merged);
  }
  return [...byKey.values()].sort((a, b) => b.score - a.score);
}

const WORD = /[A-Za-z_$][\w$]{2,}|\d+(?:\.\d+)?/g;

/** Distinct words and numbers of a text, for overlap scoring between a failure and a changed line. */
export function wordsOf(text: string): Set<string> {
  return new Set(text.match(WORD) ?? []);
}
