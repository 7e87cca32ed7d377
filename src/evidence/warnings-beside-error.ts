import type { LogLine } from '../types.js';
import type { Block } from './block.js';
import { isEmptyLine } from './grow-block.js';
import { isLocatedDiagnostic } from './vocabulary.js';

/**
 * A warning that names its own place (`X.targets(130,3): warning MSB4011: …`, `a.c:3:1: warning: …`) or the
 * runner's annotation of one (`##[warning]…`): a report of its own, which the build survived.
 */
const LOCATED_WARNING = /^(?:##\[warning\]|\S*\.\w{1,10}(?::\d+(?::\d+)?:|\(\d+(?:,\d+)?\):?)\s*warning\b)/i;

/**
 * A row of ESLint's stylish report (and of the tools that copy it: sass-lint, textlint), located by the file's path
 * line above it: `  12:5  error  msg  rule`, behind setup-node's annotation command when its problem matcher took it.
 */
export const STYLISH_ERROR_ROW = /^(?:##\[error\])?\s+\d+:\d+\s+error\s{2,}\S/;
const STYLISH_WARNING_ROW = /^(?:##\[warning\])?\s+\d+:\d+\s+warning\s{2,}\S/;

/** Whether a line is a located warning (see LOCATED_WARNING), or a stylish report's warning row. */
export const isLocatedWarning = (text: string): boolean => text.length < 2000 && (LOCATED_WARNING.test(text) || STYLISH_WARNING_ROW.test(text));

/** kotlinc's located error (`e: file:///…/A.kt:85:13 Unresolved reference: item`). */
const KOTLIN_ERROR = /^e: (?:file:\/\/)?\S+\.kts?:\d+:\d+ /;
/** A located error (`src/x.ts(4,26): error TS2307: …`, its `##[error]` annotation, kotlinc's `e: file:…`). */
export const isLocatedError = (text: string): boolean =>
  (isLocatedDiagnostic(text.replace(/^##\[error\]/, '')) && !isLocatedWarning(text)) || KOTLIN_ERROR.test(text) || (text.length < 2000 && STYLISH_ERROR_ROW.test(text));

/**
 * Blocks without the warnings printed beside an error. MSBuild prints its warnings one per line, each with its
 * place, straight above and below the one `error CS0246` that failed the build: read by shape they are one
 * run of diagnostics, and the error's block began ten warnings above it and went on through two hundred below.
 * A warning is never the failure when the step reports an error too (matcher-blocks.ts leaves the matchers'
 * warnings out for that reason; this is the same rule for the generic finder's blocks): a block's leading
 * warnings are cut, a block ends before a warning that follows its error, and a block of warnings alone is
 * dropped when another block holds something else. Only beside an error that names its place: a step
 * that printed warnings and no located error (cppcheck's `warning: Uninitialized variable` failing the step
 * through `--error-exitcode`) keeps its blocks as they were.
 */
export function withoutWarningsBesideError(blocks: readonly Block[], lines: readonly LogLine[]): Block[] {
  if (!lines.some((l) => isLocatedError(l.text))) return [...blocks];
  const text = new Map(lines.map((l) => [l.n, l.text] as const));
  const warning = (n: number) => isLocatedWarning(text.get(n) ?? '');
  const quiet = (n: number) => isEmptyLine(text.get(n) ?? '');
  const trimmed: (Block | undefined)[] = blocks.map((b) => {
    const own = b.lines ?? range(b.start, b.end);
    const first = own.findIndex((n) => !warning(n) && !quiet(n));
    if (first < 0) return undefined;
    // Past the first line that is not a warning, the next warning is another report: the block ends before it.
    // Only a run of warnings (two in a row, as MSBuild prints them): a lone warning inside a compiler's output
    // (gcc's `warning: implicit declaration of function` between its errors, with its excerpt) is part of it.
    const next = own.findIndex((n, i) => i > first && warning(n) && own[i + 1] !== undefined && warning(own[i + 1]!));
    const kept = own.slice(first, next < 0 ? own.length : next);
    while (kept.length > 1 && quiet(kept[kept.length - 1]!)) kept.pop();
    if (kept.length === own.length) return b;
    const start = kept[0]!;
    const end = kept[kept.length - 1]!;
    return { ...b, start, end, header: Math.min(Math.max(b.header, start), end), ...(b.lines ? { lines: kept } : {}), why: [...b.why, 'warnings beside the error left out'] };
  });
  // Only warnings everywhere: the step failed on them (a `-Werror` build, `--max-warnings 0`); keep them all.
  if (trimmed.every((b) => b === undefined)) return [...blocks];
  return trimmed.filter((b): b is Block => b !== undefined);
}

function range(a: number, b: number): number[] {
  const out: number[] = [];
  for (let n = a; n <= b; n++) out.push(n);
  return out;
}
