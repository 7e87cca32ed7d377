import type { Signal } from '../types.js';
import type { Candidate } from './candidate.js';
import { NULL_DEREF } from './null-from-caller.js';
import type { PrDiff } from '../repo/diff.js';
import { isTestFile } from '../repo/related-files.js';

/** How far above the best other changed line a change that makes a null goes. */
const NULL_SOURCE_LIFT = 0.02;
/**
 * An exception whose message printed a null (`java.lang.Exception: MachineMovementError null`): a wrapper that
 * appended another exception's message, which was null, as a bare NullPointerException's is on older JVMs.
 */
const NULL_MESSAGE = /\b\w*(?:Exception|Error)\b:?[^\n]*\snull\s*$/;
const ASSIGNED = /([A-Za-z_$][\w$]*)\s*=(?![=>])/g;
/** A field or local declared without a value: `private LensCalibrationParams calibration;`, `let x;`. */
const BARE_DECLARATION = (name: string) =>
  new RegExp(`^(?!\\s*(?:return|throw|yield|delete|await|new|else|case|goto)\\b)\\s*(?:(?:public|private|protected|static|final|transient|volatile|readonly|internal)\\s+)*(?:(?:let|var)\\s+|[\\w$<>\\[\\],.?]+(?:\\s*<[^;=]*>)?\\s+)${name}\\s*(?::\\s*[^=;]+)?;?\\s*$`);
/** A function header (a parameter or destructured option that lost its default). */
const HEADER = /^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?(?:function\b|def\b|fn\b)|=>\s*\{?\s*$/;
const ASSIGNS_NULL = /(?:\b([A-Za-z_$][\w$.]*)\s*=(?![=>])|\breturn)\s*(?:null|None|nil|undefined)\b/g;

/** blame-change's notes for a change on the failure's stack. */
const FRAMED = new Set(['a stack frame of the failure is on this changed line', 'changed inside the function a stack frame of the failure is in']);

export const NULL_SOURCE_NOTE = 'the failure dereferenced a null, and this change makes one';

/**
 * A failure that dereferenced a null (a NullPointerException, `'NoneType' object has no attribute`, `Cannot
 * read properties of undefined`, or an exception message that printed `null`) was most often handed that
 * null by a change that made it: a field or variable whose declaration lost its value (`private X calibration
 * = new X();` → `private Y calibration;`), an option or parameter that lost its default, or an edit that now
 * assigns or returns null. Among the breaking commit's changed lines, such a line goes just above the best
 * of the others that no frame of the failure touches, and below those a frame sits on or raised in (they say
 * which line broke): of the many things a commit changes, it is the one a null-dereference points at.
 */
export function candidatesFromNullSource(signals: readonly Signal[], candidates: readonly Candidate[], blamed: readonly Candidate[], diff: PrDiff): Candidate[] {
  const nullFailure = signals.some((s) => (s.kind === 'test' || s.kind === 'diagnostic') && (NULL_DEREF.test(s.message) || NULL_MESSAGE.test(s.message.trim())))
    || candidates.some((c) => c.cause === 'frame' && NULL_DEREF.test(c.message));
  if (!nullFailure || !blamed.length) return [];
  // A change a frame of the failure sits on (or in whose function it raised) already says where it broke, with
  // the frame's line: a null source elsewhere goes above the changes no frame touches, below those.
  const framed = blamed.filter((b) => b.notes.some((n) => FRAMED.has(n)));
  const unframed = blamed.filter((b) => !framed.includes(b));
  const above = unframed.length ? Math.max(...unframed.map((b) => b.score)) + NULL_SOURCE_LIFT : -Infinity;
  const top = framed.length ? Math.min(above, Math.min(...framed.map((b) => b.score)) - NULL_SOURCE_LIFT) : above;
  const out: Candidate[] = [];
  for (const cf of diff.files) {
    if (isTestFile(cf.file)) continue;
    for (const h of cf.hunks) {
      if (!h.removed.length) continue;
      for (const a of h.added) {
        const why = nullMadeBy(a.text, h.removed, h.added.map((x) => x.text));
        if (!why) continue;
        out.push({
          file: cf.file,
          line: a.n,
          cause: 'diff',
          score: top,
          message: `${why}: ${a.text.trim().slice(0, 200)}`,
          signals: [],
          notes: [NULL_SOURCE_NOTE, why],
          mapped: 'diff',
        });
      }
    }
  }
  return out;
}

/** Why an added line, in a hunk that removed `removed`, makes a null: or undefined when it does not. Exported for tests. */
export function nullMadeBy(text: string, removed: readonly string[], added: readonly string[]): string | undefined {
  // A null the removed side already assigned (a `sess=None` default kept while another parameter changed) is not new.
  const nulls = [...text.matchAll(ASSIGNS_NULL)].map((m) => m[0].replace(/\s+/g, ''));
  if (nulls.some((n) => !removed.some((r) => r.replace(/\s+/g, '').includes(n)))) return 'assigns or returns null in place of what was there';
  for (const r of removed) {
    for (const m of r.matchAll(ASSIGNED)) {
      const name = m[1]!;
      const own = new RegExp(`(?<![\\w$.])${name}\\s*=(?![=>])`);
      if (added.some((x) => own.test(x))) continue;
      if (BARE_DECLARATION(name).test(text)) return `declares \`${name}\` without the value it had`;
      if (HEADER.test(text) && new RegExp(`(?<![\\w$.])${name}\\s*[,})]`).test(text)) return `\`${name}\` lost its default`;
    }
  }
  return undefined;
}
