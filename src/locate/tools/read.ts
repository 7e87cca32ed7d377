import { open, opendir, stat } from 'node:fs/promises';
import { basename, dirname, extname } from 'node:path';
import { z } from 'zod';
import { GLOB_MAX_PATHS, MAX_LINE_CHARS, READ_MAX_BYTES, READ_MAX_LINES } from '../../limits.js';
import { resolveInside, toRepoPath } from '../../safety/confine.js';
import { errorResult, loadDescription, type Tool, type ToolResult } from './tool.js';
import { cutLine, printable } from './truncate.js';

/** Bytes sniffed for a NUL to call a file binary (what git and ripgrep do). */
const BINARY_SNIFF_BYTES = 8 * 1024;
/** Read size while scanning a file. */
const CHUNK_BYTES = 64 * 1024;
// TODO(limits): SUGGEST_MAX_ENTRIES — a near-miss suggestion looks at no more than this many entries of
// the folder (a folder of 100k generated files is not worth a full scan).
const SUGGEST_MAX_ENTRIES = 5_000;
/** Near-miss names offered for a missing path. */
const SUGGEST_MAX = 5;

const lineNumber = z.coerce.number().int().min(1);

const parameters = z.object({
  path: z.string().min(1, 'path must not be empty').describe('File to read, relative to the repository root.'),
  offset: lineNumber.optional().describe('1-based line number to start at. Default 1.'),
  limit: lineNumber.optional().describe(`Number of lines to return. Default and maximum ${READ_MAX_LINES}.`),
});

function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length]!;
}

/** Names in `dir` that look like `wanted` (typo, case, other extension), best first. */
async function nearMisses(dir: string, wanted: string): Promise<string[]> {
  const w = wanted.toLowerCase();
  const stem = basename(w, extname(w));
  const scored: { name: string; score: number }[] = [];
  let seen = 0;
  try {
    const d = await opendir(dir);
    for await (const ent of d) {
      if (++seen > SUGGEST_MAX_ENTRIES) break;
      const n = ent.name.toLowerCase();
      const nStem = basename(n, extname(n));
      let score: number;
      if (n === w) score = 0;
      else if (nStem === stem) score = 1;
      else {
        const dist = levenshtein(n, w);
        if (dist <= Math.max(2, Math.floor(w.length / 3))) score = 1 + dist;
        else if (stem.length >= 3 && (nStem.includes(stem) || stem.includes(nStem)) && nStem.length >= 3) score = 10;
        else continue;
      }
      scored.push({ name: ent.isDirectory() ? `${ent.name}/` : ent.name, score });
    }
  } catch {
    return [];
  }
  scored.sort((a, b) => a.score - b.score || (a.name < b.name ? -1 : 1));
  return scored.slice(0, SUGGEST_MAX).map((s) => s.name);
}

async function missing(root: string, given: string, abs: string, title: string): Promise<ToolResult> {
  let dir = dirname(abs);
  let dirExists = false;
  try {
    dir = resolveInside(root, dir);
    dirExists = (await stat(dir)).isDirectory();
  } catch {
    /* not a folder */
  }
  let msg = `File not found: ${given}`;
  if (dirExists) {
    const names = await nearMisses(dir, basename(abs));
    const relDir = toRepoPath(root, dir);
    if (names.length) {
      const list = names.map((n) => `  ${printable(relDir ? `${relDir}/${n}` : n)}`).join('\n');
      msg += `\n\nDid you mean one of these?\n${list}`;
    } else msg += `\nNo similar names in ${relDir || 'the repository root'}.`;
  } else {
    msg += `\nThe folder ${toRepoPath(root, dirname(abs)) || '.'} does not exist either.`;
  }
  msg += '\nUse glob (e.g. pattern "**/' + basename(abs) + '") to find the file by name.';
  return errorResult(title, msg);
}

async function listDirectory(root: string, abs: string, title: string): Promise<ToolResult> {
  const names: string[] = [];
  let more = false;
  const d = await opendir(abs);
  for await (const ent of d) {
    if (names.length >= SUGGEST_MAX_ENTRIES) {
      more = true;
      break;
    }
    names.push(ent.isDirectory() ? `${ent.name}/` : ent.name);
  }
  names.sort();
  const rel = toRepoPath(root, abs) || '.';
  const shown = names.slice(0, GLOB_MAX_PATHS).map(printable);
  let output = `${rel} is a folder, not a file. Its entries:\n${shown.join('\n')}`;
  const cut = more || names.length > shown.length;
  if (cut) output += `\n\n(Showing ${shown.length} of ${more ? 'more than ' : ''}${names.length} entries. Use glob with path="${rel}" and a pattern to find a file.)`;
  return { title, output, metadata: { truncated: cut, directory: true, error: `${rel} is a folder` } };
}

/** read: a window of a text file, line-numbered, bounded by READ_MAX_LINES and READ_MAX_BYTES. */
export const readTool: Tool<typeof parameters> = {
  id: 'read',
  description: loadDescription(new URL('./read.txt', import.meta.url)),
  parameters,
  async execute(args, ctx): Promise<ToolResult> {
    const abs = resolveInside(ctx.root, args.path);
    const rel = toRepoPath(ctx.root, abs);
    const offset = args.offset ?? 1;
    const limit = Math.min(args.limit ?? READ_MAX_LINES, READ_MAX_LINES);
    const title = `read ${rel}${args.offset || args.limit ? ` [${offset}+${limit}]` : ''}`;

    let st;
    try {
      st = await stat(abs);
    } catch {
      return missing(ctx.root, args.path, abs, title);
    }
    if (st.isDirectory()) return listDirectory(ctx.root, abs, title);
    if (!st.isFile()) return errorResult(title, `${rel} is not a regular file (a device, socket or pipe) and cannot be read.`);

    const fh = await open(abs, 'r');
    try {
      const buf = Buffer.alloc(CHUNK_BYTES);
      const first = await fh.read(buf, 0, CHUNK_BYTES, 0);
      if (buf.subarray(0, Math.min(first.bytesRead, BINARY_SNIFF_BYTES)).includes(0)) {
        return errorResult(title, `${rel} is a binary file (it contains NUL bytes) and cannot be read as text. Read the source file that produces it instead.`);
      }

      // One pass: count every line, keep only the window [offset, offset+limit) within READ_MAX_BYTES.
      const keepCap = MAX_LINE_CHARS * 4 + 4; // bytes of one line worth keeping (UTF-8 is at most 4 bytes a char)
      const out: string[] = [];
      let outBytes = 0;
      let byteStop = false;
      let lineNo = 1;
      let cur: Buffer[] = [];
      let curLen = 0;
      let pendingBytes = false; // bytes seen after the last newline
      const collecting = (): boolean => !byteStop && lineNo >= offset && out.length < limit;
      const finishLine = (): void => {
        if (collecting()) {
          let text = Buffer.concat(cur, curLen).toString('utf8');
          if (text.endsWith('\r')) text = text.slice(0, -1);
          const line = `${String(lineNo).padStart(5, '0')}| ${cutLine(text)}`;
          const size = Buffer.byteLength(line, 'utf8') + 1;
          if (outBytes + size > READ_MAX_BYTES && out.length > 0) byteStop = true;
          else {
            out.push(line);
            outBytes += size;
          }
        }
        cur = [];
        curLen = 0;
        lineNo++;
      };
      let n = first.bytesRead;
      let pos = n;
      let chunk = buf.subarray(0, n);
      while (n > 0) {
        let start = 0;
        for (;;) {
          const at = chunk.indexOf(10, start);
          const end = at === -1 ? chunk.length : at;
          if (end > start) pendingBytes = true;
          if (collecting() && curLen < keepCap) {
            const piece = chunk.subarray(start, Math.min(end, start + keepCap - curLen));
            cur.push(Buffer.from(piece));
            curLen += piece.length;
          }
          if (at === -1) break;
          finishLine();
          pendingBytes = false;
          start = at + 1;
        }
        const r = await fh.read(buf, 0, CHUNK_BYTES, pos);
        n = r.bytesRead;
        pos += n;
        chunk = buf.subarray(0, n);
      }
      if (pendingBytes) finishLine();
      const total = lineNo - 1;

      if (total === 0) return { title, output: `(${rel} is empty: 0 lines)`, metadata: { truncated: false, lines: 0 } };
      if (offset > total) {
        return errorResult(title, `offset=${offset} is past the end of ${rel}, which has ${total} lines. Use an offset between 1 and ${total}.`);
      }
      const last = offset + out.length - 1;
      const more = last < total;
      const footer = more
        ? `(Showing lines ${offset}-${last} of ${total}. Use offset=${last + 1} to continue.)`
        : `(End of file - ${total} lines)`;
      return {
        title,
        output: `${out.join('\n')}\n\n${footer}`,
        metadata: { truncated: more, lines: total, from: offset, to: last, cutByBytes: byteStop },
      };
    } finally {
      await fh.close();
    }
  },
};
