import type { Signal } from '../types.js';
import type { Candidate } from './candidate.js';
import type { SymbolGraph } from '../repo/map/symbol-graph.js';
import { isChangedLine, type PrDiff } from '../repo/diff.js';
import type { Workspace } from '../repo/workspace.js';

/** How far above the call's line the definition that cannot take the call goes: just above, the call stays the next lead. */
const SIGNATURE_LIFT = 0.05;
/** How far below a traceback's last frame line its exception line is printed (the frame, its code line, the error). */
const TRACEBACK_TAIL = 3;
/** How many lines a `def` header may span. */
const MAX_HEADER_LINES = 12;
/**
 * Python's complaints about a call's arguments, with the function's name: an unexpected keyword, a wrong
 * count of positional arguments (Python 2 `takes exactly 4 arguments (5 given)`, Python 3 `takes 3 positional
 * arguments but 4 were given`, both counting `self`), a required argument missing.
 */
const PY_CALL_ERROR = /TypeError: (?:[\w.]+\.)?(\w+)\(\) (?:got an unexpected keyword argument '(\w+)'|takes (?:exactly |at most |at least |from \d+ to )?\d+ (?:positional )?arguments? (?:\((\d+) given\)|but (\d+) (?:was|were) given)|missing \d+ required (?:positional )?arguments?: '(\w+)')/;

export const CALL_SIGNATURE_NOTE = 'the one definition of the called name whose parameters cannot take the call the error reports';

interface Param {
  name: string;
  /** 0 a plain parameter, 1 `*args`, 2 `**kwargs`. */
  star: 0 | 1 | 2;
  hasDefault: boolean;
  /** After a bare `*` or `*args`: keyword-only. */
  keywordOnly: boolean;
}

/**
 * A Python `TypeError` about a call's arguments (`_get_isotope() takes exactly 4 arguments (5 given)`, `set_extract_state()
 * got an unexpected keyword argument 'color'`) is raised at the call, but the call and the definition disagree, and
 * either may be the one the change got wrong. When exactly one definition of that name in the checkout cannot take
 * the call as reported (no such keyword and no `**kwargs`; a positional count outside its range and no `*args`; the
 * missing argument required), and neither it nor the call's line is a change of the diff (a changed call, or a changed
 * signature, is already where the diff points), that definition goes just above the call's line: the calls agree with
 * each other and the definition is the odd one out (a test double that lacks the new keyword, a method that lost a
 * parameter its callers pass).
 */
export function candidatesFromCallSignature(graph: SymbolGraph, signals: readonly Signal[], candidates: readonly Candidate[], ws: Workspace, diff: PrDiff | undefined): Candidate[] {
  const errors = signals.filter((s) => (s.kind === 'test' || s.kind === 'diagnostic') && PY_CALL_ERROR.test(s.message));
  const m = [...errors.map((s) => s.message), ...candidates.map((c) => c.message)].map((t) => PY_CALL_ERROR.exec(t)).find((x) => x);
  if (!m) return [];
  const [, name, keyword, givenOld, givenNew, missing] = m;
  const given = Number(givenOld ?? givenNew ?? NaN);
  // The call: the innermost frame in the repository under the error (the line that made the call), named by the
  // error it carries or printed just above the error's line (a traceback's last `File …, line N` and its code line).
  const errorLines = errors.map((s) => s.logLine);
  const underError = (c: Candidate) => c.message.includes(m[0]) || c.signals.some((s) => s.kind === 'frame' && errorLines.some((e) => e > s.logLine && e - s.logLine <= TRACEBACK_TAIL));
  const call = candidates.filter((c) => (c.cause === 'frame' || c.cause === 'test') && c.depth === 0 && underError(c)).sort((a, b) => b.score - a.score)[0];
  if (!call || isChangedLine(diff, call.file, call.line)) return [];
  const misfits = (graph.definers.get(name!) ?? []).filter((site) => {
    if (!/\.pyw?$/.test(site.file) || site.def.kind === 'class') return false;
    const params = pythonParams(ws.lines(site.file) ?? [], site.def.line);
    if (!params) return false;
    if (keyword) return !params.some((p) => p.star === 2 || (p.name === keyword && p.star === 0));
    if (missing) return params.some((p) => p.name === missing && !p.hasDefault && p.star === 0);
    if (Number.isNaN(given)) return false;
    if (params.some((p) => p.star === 1)) return false;
    const positional = params.filter((p) => p.star === 0 && !p.keywordOnly);
    const required = positional.filter((p) => !p.hasDefault).length;
    return given > positional.length || given < required;
  });
  if (misfits.length !== 1) return [];
  const site = misfits[0]!;
  const lines = ws.lines(site.file) ?? [];
  for (let n = site.def.line; n <= site.def.line + MAX_HEADER_LINES && n <= lines.length; n++) if (isChangedLine(diff, site.file, n)) return [];
  return [{
    file: site.file,
    line: site.def.line,
    cause: 'definition',
    score: call.score + SIGNATURE_LIFT,
    message: `${m[0]}: \`${site.def.signature.slice(0, 160)}\` cannot take the call at ${call.file}:${call.line}`,
    symbol: name,
    signals: [],
    notes: [CALL_SIGNATURE_NOTE],
    mapped: 'search',
  }];
}

/** The parameters of the `def` at `start` (its header may wrap), or undefined when it is not one. Exported for tests. */
export function pythonParams(lines: readonly string[], start: number): Param[] | undefined {
  const header = lines.slice(start - 1, start - 1 + MAX_HEADER_LINES).join('\n');
  const at = /\bdef\s+\w+\s*\(/.exec(header);
  if (!at) return undefined;
  let depth = 0;
  let body = '';
  for (let i = at.index + at[0].length - 1; i < header.length; i++) {
    const ch = header[i]!;
    if ('([{'.includes(ch)) depth++;
    else if (')]}'.includes(ch)) depth--;
    if (depth === 0) break;
    if (depth > 1 || ch !== '(' || body) body += ch;
  }
  const out: Param[] = [];
  let keywordOnly = false;
  let cur = '';
  depth = 0;
  const flush = () => {
    const p = cur.replace(/#.*$/gm, '').trim();
    cur = '';
    if (!p || p === '/') return;
    if (p === '*') {
      keywordOnly = true;
      return;
    }
    const star = p.startsWith('**') ? 2 : p.startsWith('*') ? 1 : 0;
    const name = /^\*{0,2}\s*([A-Za-z_]\w*)/.exec(p)?.[1];
    if (!name) return;
    out.push({ name, star, hasDefault: /=/.test(p), keywordOnly });
    if (star === 1) keywordOnly = true;
  };
  for (const ch of body) {
    if ('([{'.includes(ch)) depth++;
    else if (')]}'.includes(ch)) depth--;
    if (ch === ',' && depth === 0) flush();
    else cur += ch;
  }
  flush();
  return out;
}
