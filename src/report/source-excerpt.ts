import { SOURCE_MAX_LINES, SOURCE_MAX_LINE_CHARS } from './bounds.js';
import { redactLines } from '../safety/redact.js';

/** One line of a source excerpt, 1-based, already redacted and cut to a readable width. */
export interface ExcerptLine {
  n: number;
  text: string;
  pinned: boolean;
}

// Redact a window wider than the excerpt: a key block that starts above the excerpt is only
// recognisable from its BEGIN line (a 4096-bit RSA key is ~50 lines).
const REDACT_MARGIN = 100;

/** Cuts `s` to `max` characters, saying so with an ellipsis. */
export function cut(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, Math.max(0, max - 1))}…`;
}

/**
 * The pinned lines of a file with `context` lines either side, or undefined when the file is not
 * available or the line is outside it. A long pinned range shows its first SOURCE_MAX_LINES lines.
 */
export function sourceExcerpt(
  lines: readonly string[] | undefined,
  line: number,
  endLine: number | undefined,
  context: number,
): ExcerptLine[] | undefined {
  if (!lines || !Number.isInteger(line) || line < 1 || line > lines.length) return undefined;
  const pinEnd = Math.min(Math.max(endLine ?? line, line), line + SOURCE_MAX_LINES - 1, lines.length);
  const from = Math.max(1, line - Math.max(0, context));
  const to = Math.min(lines.length, pinEnd + Math.max(0, context));
  const wFrom = Math.max(1, from - REDACT_MARGIN);
  const wTo = Math.min(lines.length, to + REDACT_MARGIN);
  const window = redactLines(lines.slice(wFrom - 1, wTo)).lines;
  const out: ExcerptLine[] = [];
  for (let n = from; n <= to; n++) {
    const text = (window[n - wFrom] ?? '').replace(/\r$/, '');
    out.push({ n, text: cut(text, SOURCE_MAX_LINE_CHARS), pinned: n >= line && n <= pinEnd });
  }
  return out;
}
