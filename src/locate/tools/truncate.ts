import { createHash } from 'node:crypto';
import { MAX_LINE_CHARS } from '../../limits.js';
import type { ToolContext } from './tool.js';

/**
 * The shared "cut and say how to narrow" helpers. Every tool output is bounded; when a bound cuts it,
 * the output says what was left out and how to ask a narrower question, and the full text is handed
 * to ctx.spill (the artifact folder) so a person can still see it.
 */

/** Cuts one line to `max` characters (never inside a surrogate pair) and says so. */
export function cutLine(line: string, max: number = MAX_LINE_CHARS): string {
  if (line.length <= max) return line;
  let end = max;
  const c = line.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--;
  return `${line.slice(0, end)}… (line cut at ${max} characters)`;
}

/** Makes a file name safe to print on one line: control characters (a newline in a name) are escaped. */
export function printable(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\x00-\x1f\x7f]/g, (ch) => `\\x${ch.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** A stable spill file name for one call: `grep-1a2b3c4d.txt`. */
export function spillName(toolId: string, args: unknown): string {
  const h = createHash('sha256').update(JSON.stringify(args) ?? '').digest('hex').slice(0, 8);
  return `${toolId}-${h}.txt`;
}

/** Saves the full output through ctx.spill; returns where, or undefined (no spill, or it failed: never throws). */
export async function spillFull(ctx: ToolContext, name: string, content: string): Promise<string | undefined> {
  if (!ctx.spill) return undefined;
  try {
    return await ctx.spill(name, content);
  } catch {
    return undefined;
  }
}

/**
 * The closing note of a cut output: `(Showing 100 of 2345 matches; 2245 omitted. <hint> The full output
 * was saved to <where>.)`. `total` may be a lower bound (`atLeast`).
 */
export function cutNotice(o: {
  shown: number;
  total: number;
  unit: string;
  hint: string;
  atLeast?: boolean;
  spilledTo?: string;
}): string {
  const omitted = o.total - o.shown;
  const of = o.atLeast ? `at least ${o.total}` : String(o.total);
  const saved = o.spilledTo ? ` The full output was saved to ${o.spilledTo}.` : '';
  return `(Showing ${o.shown} of ${of} ${o.unit}; ${o.atLeast ? 'at least ' : ''}${omitted} omitted. ${o.hint}${saved})`;
}

export interface TruncateOptions {
  maxLines?: number;
  maxBytes?: number;
  /** How to narrow, e.g. 'Use a more specific pattern or set path.' */
  hint: string;
  /** File name for ctx.spill (see spillName). */
  spillName: string;
}

export interface Truncated {
  output: string;
  truncated: boolean;
  spilledTo?: string;
}

/**
 * Bounds a text by lines and UTF-8 bytes, cutting at a line boundary and every line at MAX_LINE_CHARS.
 * When something is cut, the full text is spilled and a notice saying how to narrow is appended.
 */
export async function truncateOutput(text: string, opts: TruncateOptions, ctx: ToolContext): Promise<Truncated> {
  const maxLines = opts.maxLines ?? Infinity;
  const maxBytes = opts.maxBytes ?? Infinity;
  const lines = text.split('\n');
  const kept: string[] = [];
  let bytes = 0;
  let lineCut = false;
  for (const raw of lines) {
    if (kept.length >= maxLines) break;
    const line = cutLine(raw);
    if (line !== raw) lineCut = true;
    const size = Buffer.byteLength(line, 'utf8') + (kept.length > 0 ? 1 : 0);
    if (bytes + size > maxBytes) break;
    kept.push(line);
    bytes += size;
  }
  const cut = kept.length < lines.length;
  if (!cut) return { output: kept.join('\n'), truncated: lineCut };
  const spilledTo = await spillFull(ctx, opts.spillName, text);
  const notice = cutNotice({ shown: kept.length, total: lines.length, unit: 'lines', hint: opts.hint, spilledTo });
  return { output: `${kept.join('\n')}\n\n${notice}`, truncated: true, spilledTo };
}
