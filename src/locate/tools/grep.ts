import { statSync } from 'node:fs';
import { z } from 'zod';
import { GREP_MAX_MATCHES, RG_MAX_OUTPUT_BYTES, RG_TIMEOUT_MS } from '../../limits.js';
import { realRoot, resolveInside, toRepoPath } from '../../safety/confine.js';
import { runRipgrep, WALK_ARGS } from '../../repo/ripgrep.js';
import { errorResult, loadDescription, type Tool, type ToolResult } from './tool.js';
import { cutLine, cutNotice, printable, spillFull, spillName } from './truncate.js';

// TODO(limits): GREP_MAX_RECORD_BYTES — one rg JSON record carries the whole matching line; a line
// longer than this (a minified bundle) is skipped and counted rather than buffered.
const GREP_MAX_RECORD_BYTES = 1024 * 1024;

const parameters = z.object({
  pattern: z.string().min(1, 'pattern must not be empty').describe('Regular expression (Rust regex syntax) to search for.'),
  path: z
    .string()
    .optional()
    .describe('File or folder to search, relative to the repository root. Default: the whole repository.'),
  include: z
    .string()
    .min(1)
    .optional()
    .describe('Only search files matching this glob, e.g. "*.ts", "*.{js,jsx}" or "src/**/*.py".'),
});

interface Match {
  path: string;
  line: number;
  text: string;
}

interface RgText {
  text?: string;
  bytes?: string;
}

function rgText(t: RgText | undefined): string {
  if (!t) return '';
  if (typeof t.text === 'string') return t.text;
  if (typeof t.bytes === 'string') return Buffer.from(t.bytes, 'base64').toString('utf8');
  return '';
}

function byPathThenLine(a: Match, b: Match): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line;
}

function format(matches: readonly Match[]): string {
  const out: string[] = [];
  let current: string | undefined;
  for (const m of matches) {
    if (m.path !== current) {
      if (current !== undefined) out.push('');
      out.push(`${printable(m.path)}:`);
      current = m.path;
    }
    out.push(`  Line ${m.line}: ${m.text}`);
  }
  return out.join('\n');
}

/** grep: a fixed rg command line; the caller chooses the pattern, a folder and a glob, never flags. */
export const grepTool: Tool<typeof parameters> = {
  id: 'grep',
  description: loadDescription(new URL('./grep.txt', import.meta.url)),
  parameters,
  async execute(args, ctx): Promise<ToolResult> {
    const cwd = realRoot(ctx.root);
    const abs = resolveInside(ctx.root, args.path ?? '.');
    const rel = toRepoPath(ctx.root, abs);
    const where = rel === '' ? '' : ` in ${rel}`;
    const title = `grep ${JSON.stringify(args.pattern)}${where}${args.include ? ` (${args.include})` : ''}`;
    try {
      statSync(abs);
    } catch {
      return errorResult(
        title,
        `Path "${args.path}" does not exist in the repository. Use glob to find the right folder, or leave path empty to search everything.`,
      );
    }

    const rgArgs = [
      '--json',
      ...(args.include ? [`--glob=${args.include}`] : []),
      ...WALK_ARGS,
      '--',
      args.pattern,
      rel === '' ? '.' : rel,
    ];
    const matches: Match[] = [];
    let storedBytes = 0;
    let full = false;
    const res = await runRipgrep(rgArgs, {
      cwd,
      timeoutMs: RG_TIMEOUT_MS,
      maxRecordBytes: GREP_MAX_RECORD_BYTES,
      signal: ctx.signal,
      onRecord(record) {
        if (!record.startsWith('{"type":"match"')) return;
        let msg: { data?: { path?: RgText; lines?: RgText; line_number?: number | null } };
        try {
          msg = JSON.parse(record);
        } catch {
          return;
        }
        const d = msg.data;
        let path = rgText(d?.path);
        if (path.startsWith('./')) path = path.slice(2);
        const text = cutLine(rgText(d?.lines).replace(/\r?\n$/, ''));
        matches.push({ path, line: d?.line_number ?? 0, text });
        storedBytes += text.length + path.length + 32;
        if (storedBytes >= RG_MAX_OUTPUT_BYTES) {
          full = true;
          return 'stop';
        }
      },
    });

    const longLines = res.droppedRecords;
    const partial = res.truncated || res.timedOut || res.aborted;
    if (matches.length === 0) {
      if (res.code === 2 && !partial) {
        const err = res.stderr.trim().split('\n').slice(0, 12).join('\n');
        return errorResult(
          title,
          `grep failed: ${err || 'ripgrep reported an error'}\n` +
            'The pattern is a Rust regular expression: escape special characters such as ( ) [ ] { } . * + ? | \\ with a backslash to search for them literally.',
        );
      }
      let output = 'No matches found';
      if (longLines > 0)
        output += ` on lines shorter than ${GREP_MAX_RECORD_BYTES} bytes; ${longLines} match(es) are on longer lines (minified or generated files)`;
      if (res.timedOut) output += `. The search stopped after ${RG_TIMEOUT_MS / 1000}s; narrow it with path or include`;
      return { title, output: output + '.', metadata: { truncated: res.timedOut, matches: 0 } };
    }

    matches.sort(byPathThenLine);
    const total = matches.length;
    const shown = matches.slice(0, GREP_MAX_MATCHES);
    const cut = total > GREP_MAX_MATCHES || partial;
    const header = `Found ${partial ? 'at least ' : ''}${total} match${total === 1 ? '' : 'es'}`;
    let output = `${header}\n${format(shown)}`;
    const notes: string[] = [];
    if (cut) {
      const spilledTo = await spillFull(ctx, spillName('grep', args), `${header}\n${format(matches)}\n`);
      const hint =
        'Narrow the search: set path to a folder or file, set include to a glob such as "*.ts", or use a more specific pattern.';
      if (total > GREP_MAX_MATCHES) notes.push(cutNotice({ shown: shown.length, total, unit: 'matches', hint, atLeast: partial, spilledTo }));
      else notes.push(`(The search was stopped before the end, so there may be more matches. ${hint})`);
      if (res.timedOut && !full) notes.push(`(The search stopped after ${RG_TIMEOUT_MS / 1000}s.)`);
    }
    if (longLines > 0)
      notes.push(`(${longLines} more match(es) on lines longer than ${GREP_MAX_RECORD_BYTES} bytes were skipped: minified or generated files.)`);
    if (notes.length) output += `\n\n${notes.join('\n')}`;
    return {
      title,
      output,
      metadata: { truncated: cut, matches: total, shown: shown.length, partial, skippedLongLines: longLines },
    };
  },
};
