// Shared by bench-pins.mjs and bench-pins-corpus.mjs: where the mirrors are, and what a fix's lines are.
import { existsSync } from 'node:fs';

export const MIRRORS = process.env.REDLINE_MIRRORS ?? '/work/.mirror';
export const DISSECTION = 'tdurieux/BugSwarm-dissection';

/** The git dir of a fetched mirror of owner/name, or null when it is not on this machine. */
export function gitDirOf(repo) {
  const base = `${MIRRORS}/${repo.replace('/', '+')}/repo`;
  if (existsSync(`${base}/.git`)) return `${base}/.git`;
  if (existsSync(`${base}/objects`)) return base;
  return null;
}

/**
 * The lines a fix changed, in the pre-image's coordinates: every removed line, and for a hunk that only
 * adds, the line before and the line after the insertion (where a person would pin the missing code).
 * New files have no pre-image and give nothing.
 */
export function fixLines(patch) {
  const out = [];
  let file = null;
  let old = 0;
  let pendingAdd = false;
  let lastOld = 0;
  const push = (line) => file && line > 0 && !out.some((a) => a.file === file && a.line === line) && out.push({ file, line });
  for (const l of patch.split('\n')) {
    if (l.startsWith('diff --git ')) { file = null; continue; }
    if (l.startsWith('--- ')) { file = l === '--- /dev/null' ? null : l.slice(4).replace(/^a\//, '').replace(/\t.*$/, ''); continue; }
    if (l.startsWith('+++ ')) continue;
    const h = /^@@ -(\d+)(?:,\d+)? \+\d+(?:,\d+)? @@/.exec(l);
    if (h) { old = Number(h[1]); lastOld = old - 1; pendingAdd = false; continue; }
    if (!file) continue;
    if (l.startsWith('-')) { push(old); lastOld = old; old++; pendingAdd = false; }
    else if (l.startsWith('+')) { if (!pendingAdd) { push(lastOld); pendingAdd = true; } }
    else if (l.startsWith(' ') || l === '') {
      if (pendingAdd) { push(old); pendingAdd = false; }
      lastOld = old; old++;
    }
  }
  return out;
}
