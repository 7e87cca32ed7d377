import type { LogLine } from '../types.js';
import type { Block } from './block.js';
import { isEmptyLine } from './grow-block.js';
import type { Selection } from './select-blocks.js';
import { isLocatedError, isLocatedWarning, STYLISH_ERROR_ROW } from './warnings-beside-error.js';

/**
 * How many lines of a list of compiler errors a reader pastes: the first ten (fixtures/README.md's quoting
 * rule for a failure that repeats, "a list of type errors: the first ten lines of a list").
 */
export const LIST_LINES = 10;
/** A compiler's source excerpt under its error: the gutter (`   36 |  FILE *in`) or the caret line (`  ^~~~`). */
const SOURCE_EXCERPT = /^\s*\d*\s*\|(?:\s|$)|^\s*\^[~^]*\s*$/;
/** How far a line inside the list may be from the next error (Gradle's task line between kotlinc's errors). */
const LIST_GAP = 2;
/** How many lines the list's first lines are looked for in (warnings between errors are skipped). */
const LIST_SCAN = 20_000;


/**
 * The selection with a list of located errors quoted by its first LIST_LINES lines. tsc through pnpm prints
 * one `##[error]file(l,c): error TSxxxx` per line, with the overloads it tried under some, for thirty files;
 * kotlinc prints its `e: file:…:l:c` lines in a run: the selection filled the whole line budget with them, in
 * several blocks (one per file, or per run of lines of one template), where a person pastes the first ten
 * lines of the list as printed and stops. So when the chosen blocks hold two or more located errors, the first
 * block headed by one is replaced by the list's first ten lines from its start (the errors and the indented
 * lines under them, up to the first line that is neither), and the later blocks headed by one are left out.
 * Only a list of one-line errors: one error whose notes run on (MSVC's `note: could be …` lines under a
 * C2672) is one report, and errors each printed with their source excerpt (gcc, javac) are blocks, quoted whole. Other blocks (a summary, a test failure) are kept as they were.
 */
export function firstLinesOfErrorList(selection: Selection, lines: readonly LogLine[]): Selection {
  const byBlock = new Map<number, { line: number; text: string; block: number }[]>();
  for (const l of selection.lines) byBlock.set(l.block, [...(byBlock.get(l.block) ?? []), l]);
  // A block of a stylish report opens with the file's path line, its rows under it.
  const headLine = (i: number) => {
    const own = byBlock.get(i) ?? [];
    return own[0] && !isLocatedError(own[0].text) && STYLISH_ERROR_ROW.test(own[1]?.text ?? '') ? own[1] : own[0];
  };
  const heads = selection.blocks.map((_b, i) => isLocatedError(headLine(i)?.text ?? ''));
  const errors = selection.blocks.reduce((sum, _b, i) => sum + (heads[i] ? (byBlock.get(i) ?? []).filter((l) => isLocatedError(l.text)).length : 0), 0);
  const f = heads.indexOf(true);
  if (f < 0 || errors < 2) return selection;
  let from = lines.findIndex((l) => l.n === headLine(f)!.line);
  // A stylish report is one list over the whole step: a run of error rows further down outscored the first
  // error, alone under its file (guild-planner's one React error above 27 rows of another file), but the
  // list as printed starts at the step's first error row.
  if (STYLISH_ERROR_ROW.test(lines[from]?.text ?? '')) {
    for (let i = Math.max(0, from - LIST_SCAN); i < from; i++) {
      if (STYLISH_ERROR_ROW.test(lines[i]!.text)) {
        from = i;
        break;
      }
    }
  }
  const list: { line: number; text: string }[] = [];
  for (let i = from; i < lines.length && i - from <= LIST_SCAN && list.length < LIST_LINES; i++) {
    const t = lines[i]!.text;
    // The warnings MSBuild prints between its errors are not the list (warnings-beside-error.ts).
    if (isEmptyLine(t) || isLocatedWarning(t)) continue;
    // A line inside the list (Gradle's `> Task :app:compileDebugKotlin FAILED` between kotlinc's `e:` lines,
    // tsc's overloads under an error) is part of it when an error follows it closely; otherwise the list ended.
    // Only next to what was taken: a line the warnings separate from the errors is not under them.
    const next = list.length > 0 && lines[i - 1]!.n === list[list.length - 1]!.line;
    if (!isLocatedError(t) && !(next && (/^\s/.test(t) || lines.slice(i + 1, i + 1 + LIST_GAP).some((l) => isLocatedError(l.text))))) {
      break;
    }
    list.push({ line: lines[i]!.n, text: t });
  }
  // A list of one-line errors, not errors each with its source excerpt and notes (gcc's `36 |  FILE *in` and
  // caret lines, javac's): those are blocks a person pastes whole, as the corpus' gcc labels quote them.
  if (list.some((l) => SOURCE_EXCERPT.test(l.text))) return selection;
  // A stylish report's rows are located by the file's path line above them (warnings between): a reader pastes
  // it with them, as the corpus' eslint labels quote it.
  if (STYLISH_ERROR_ROW.test(list[0]!.text)) {
    let k = from - 1;
    while (k >= 0 && from - k <= LIST_SCAN && (isLocatedWarning(lines[k]!.text) || STYLISH_ERROR_ROW.test(lines[k]!.text))) k--;
    const path = lines[k];
    if (path && !isEmptyLine(path.text) && !/^\s/.test(path.text) && !path.text.startsWith('##[')) list.unshift({ line: path.n, text: path.text });
  }
  const end = list[list.length - 1]!.line;
  const keep: { block: Block; lines: { line: number; text: string }[] }[] = [];
  selection.blocks.forEach((b, i) => {
    if (i === f) {
      const why = [...b.why, `a list of errors: its first ${LIST_LINES} lines`];
      return void keep.push({ block: { ...b, start: list[0]!.line, end, header: list[0]!.line, lines: list.map((l) => l.line), why }, lines: list });
    }
    const own = byBlock.get(i) ?? [];
    // The rest of the list, and whatever the list's first lines now cover, is left out.
    if (heads[i] || (own[0] && own[0].line <= end && b.end >= list[0]!.line)) return;
    keep.push({ block: b, lines: own });
  });
  return {
    blocks: keep.map((k) => k.block),
    lines: keep.flatMap((k, i) => k.lines.map((l) => ({ line: l.line, text: l.text, block: i }))),
  };
}

