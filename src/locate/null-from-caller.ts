import type { Candidate } from './candidate.js';
import { RAISED_UNDER_TEST } from './from-signals.js';
import { definitionAt, type SymbolGraph } from '../repo/map/symbol-graph.js';
import type { PrDiff } from '../repo/diff.js';
import type { Workspace } from '../repo/workspace.js';

/** How far above the raising frame's line its caller's line goes: just above, so the raising line stays the next lead. */
const CALLER_LIFT = 0.05;
/** A dereference of null, undefined or None, as the runtimes word it. */
export const NULL_DEREF = /NullPointerException|'NoneType' object|Cannot read propert(?:y|ies) of (?:undefined|null)|(?:undefined|null) is not an object|nil pointer dereference|attempt to index a nil value/;
/** Where the runtime names what was null: Java's helpful NPE (`because "m" is null`), JS (`reading 'x'`), Python (`attribute 'x'`). */
const NULL_VAR = /because "([\w$<>]+)" is null/;
const NULL_VIA = /because the return value of|because "[\w$]+\.[\w$.]+" is null/;
const READ_MEMBER = /\(reading '([\w$]+)'\)|has no attribute '([\w$]+)'|of (?:undefined|null) \(reading|is not subscriptable/;
const FUNCTION_KINDS = new Set(['function', 'method']);
/** How many lines a function's header may span before its parameter list closes. */
const MAX_HEADER_LINES = 12;

export const NULL_FROM_CALLER_NOTE = 'the null was handed in: the raising line dereferences only a parameter of a function the change left alone, so the caller passed it';

/**
 * A null (undefined, None) dereferenced on a line that reads it only through a parameter of its function
 * (`m.type()` in `toBufferedImage(Mat m)`), in a function the breaking commit did not change, was handed in:
 * the function did what it always did, and what changed is what its caller passed. The caller's frame line
 * (the next frame of the same stack, printed right under it) goes just above the raising line. With the
 * raising function changed, or a receiver that is a field, a local or a call's result, nothing is offered:
 * the null may then have been made right there. Needs the diff (without it, a changed callee and an
 * unchanged one look the same) and the tags (the enclosing function's parameters).
 */
export function candidatesFromNullCaller(graph: SymbolGraph, candidates: readonly Candidate[], ws: Workspace, diff: PrDiff): Candidate[] {
  const raising = candidates.filter((c) => c.cause === 'frame' && c.depth === 0 && c.notes.includes(RAISED_UNDER_TEST) && NULL_DEREF.test(c.message));
  const out: Candidate[] = [];
  for (const r of raising) {
    const def = definitionAt(graph.tags.get(r.file), r.line);
    if (!def || !FUNCTION_KINDS.has(def.kind)) continue;
    if ((diff.byFile.get(r.file)?.hunks ?? []).some((h) => h.start <= def.endLine && h.end >= def.line)) continue;
    const lines = ws.lines(r.file) ?? [];
    const params = parametersOf(lines, def.line, r.file);
    if (!params.size || !dereferencesOnlyParameters(lines[r.line - 1] ?? '', params, r.message)) continue;
    // The caller is the frame printed on the next log line, one frame further out in the repository.
    const at = Math.min(...r.signals.filter((s) => s.kind === 'frame').map((s) => s.logLine));
    const caller = candidates.find((c) => (c.cause === 'frame' || c.cause === 'test') && c.depth === 1 && c.signals.some((s) => s.kind === 'frame' && s.logLine === at + 1));
    if (!caller) continue;
    out.push({
      file: caller.file,
      line: caller.line,
      cause: 'frame',
      score: r.score + CALLER_LIFT,
      message: r.message,
      symbol: caller.symbol,
      signals: [],
      notes: [NULL_FROM_CALLER_NOTE, `the caller of ${r.file}:${r.line}`],
      mapped: caller.mapped,
      depth: 1,
    });
  }
  return out;
}

/** The parameter names of the function whose header starts at `start` (Java/Kotlin/C#, Python, JavaScript/TypeScript). */
export function parametersOf(lines: readonly string[], start: number, file: string): Set<string> {
  const header = lines.slice(start - 1, start - 1 + MAX_HEADER_LINES).join('\n');
  const open = header.indexOf('(');
  if (open < 0) return new Set();
  let depth = 0;
  let close = -1;
  for (let i = open; i < header.length; i++) {
    const ch = header[i];
    if (ch === '(' || ch === '[' || ch === '{' || ch === '<') depth++;
    else if (ch === ')' || ch === ']' || ch === '}' || ch === '>') depth--;
    if (depth === 0) {
      close = i;
      break;
    }
  }
  if (close < 0) return new Set();
  const out = new Set<string>();
  for (const piece of splitTopLevel(header.slice(open + 1, close))) {
    const p = piece.replace(/@\w+(?:\([^)]*\))?/g, '').trim();
    if (!p || /^[{[]/.test(p)) continue;
    let name: string | undefined;
    if (/\.py[iwx]?$/.test(file)) name = /^\*{0,2}([A-Za-z_]\w*)/.exec(p)?.[1];
    else if (/\.(?:[cm]?[jt]sx?)$/.test(file)) name = /^(?:(?:public|private|protected|readonly)\s+)*\.{0,3}([A-Za-z_$][\w$]*)/.exec(p)?.[1];
    else name = /([A-Za-z_$][\w$]*)\s*(?:\[\s*\])*\s*$/.exec(p.replace(/\s*=.*$/, ''))?.[1];
    if (name && name !== 'self' && name !== 'cls' && name !== 'this') out.add(name);
  }
  return out;
}

function splitTopLevel(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if ('([{<'.includes(ch)) depth++;
    else if (')]}>'.includes(ch)) depth--;
    if (ch === ',' && depth === 0) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

/**
 * Whether every value the line dereferences that could be null is a parameter: `m.type()` with `m` a
 * parameter, and no field chain (`a.b.c`), `this.f.`, call result (`f().x`) or local. A runtime that names
 * what was null decides alone (Java's `because "m" is null`; JavaScript's `reading 'x'` and Python's
 * `attribute 'x'` name the member read, whose receiver must then be a bare parameter).
 */
export function dereferencesOnlyParameters(text: string, params: ReadonlySet<string>, message: string): boolean {
  const code = text.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""').replace(/\/\/.*$|#.*$/, '');
  if (NULL_VIA.test(message)) return false;
  const named = NULL_VAR.exec(message)?.[1];
  if (named) return params.has(named) || /^<parameter\d+>$/.test(named);
  const member = READ_MEMBER.exec(message);
  if (member && (member[1] ?? member[2])) {
    const m = member[1] ?? member[2]!;
    const receivers = [...code.matchAll(new RegExp(`([\\w$.\\]\\)]+?)\\??\\.${m}\\b`, 'g'))].map((x) => x[1]!);
    return receivers.length > 0 && receivers.every((x) => params.has(x));
  }
  // No name in the message (an old JVM's bare NullPointerException): every dereference on the line.
  if (/\)\s*\??\.\s*[A-Za-z_$]/.test(code) || /\bthis\s*\.\s*\w+\s*\./.test(code)) return false;
  const roots = [...code.matchAll(/(?<![\w$.])([a-z_$][\w$]*)\s*(\.\s*[A-Za-z_$][\w$]*)(\s*\.)?/g)];
  if (!roots.length) return false;
  return roots.every((x) => params.has(x[1]!) && !x[3]);
}
