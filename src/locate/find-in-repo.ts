import { runRipgrep, WALK_ARGS } from '../repo/ripgrep.js';
import type { Workspace } from '../repo/workspace.js';
import { RG_TIMEOUT_MS } from '../limits.js';

/**
 * Where a literal occurs in the checkout: up to `max` (file, line) pairs, found by ripgrep with a fixed
 * argument list (the literal is data after `--`, never a flag or a regex).
 */
export async function findFirstInRepo(ws: Workspace, literal: string, max: number, glob?: string): Promise<{ file: string; line: number; text: string }[]> {
  const args = [...WALK_ARGS, '--line-number', '--no-heading', '--with-filename', '--fixed-strings', '--word-regexp', '--max-count=1', '--max-columns=500', '--color=never'];
  if (glob) args.push(`--glob=${glob}`);
  args.push('--', literal, '.');
  const res = await runRipgrep(args, { cwd: ws.root, timeoutMs: RG_TIMEOUT_MS, maxOutputBytes: 256 * 1024 });
  const out: { file: string; line: number; text: string }[] = [];
  for (const row of res.stdout.split('\n')) {
    const m = /^(?:\.\/)?(.+?):(\d+):(.*)$/.exec(row);
    if (!m) continue;
    out.push({ file: m[1]!, line: Number(m[2]), text: m[3]! });
  }
  return out.sort((a, b) => a.file.localeCompare(b.file)).slice(0, max);
}
