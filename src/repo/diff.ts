import { execFile } from 'node:child_process';
import { GitError } from '../errors.js';
import { MAX_DIFF_BYTES } from '../limits.js';

/** One hunk of the PR on the new side: lines start..end (inclusive) were added or changed. */
export interface Hunk {
  start: number;
  end: number;
  /** The added lines, with their new-side numbers. Empty for a pure deletion (then start === end). */
  added: { n: number; text: string }[];
  /** Lines removed in this hunk (their old text: a changed line shows up as one removed, one added). */
  removed: string[];
}

export interface ChangedFile {
  file: string;
  hunks: Hunk[];
}

/** The PR's changes: the strongest prior Redline has ("blame the change, not the symptom"). */
export interface PrDiff {
  files: ChangedFile[];
  byFile: Map<string, ChangedFile>;
  /**
   * Who made these changes, as the findings say it. Unset: the PR. A push's or a silent PR's prior (the
   * commits since the last green run) says so, so no finding tells a PR author they changed what they did not.
   */
  changedBy?: string;
}

/** The subject of "… changed this line" for a diff: the PR unless the diff says otherwise. */
export function changedBy(diff: PrDiff | undefined): string {
  return diff?.changedBy ?? 'the PR';
}

const HUNK = /^@@ -\d+(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/** Parses a unified diff (git diff, or the PR files API's per-file `patch` joined with headers). */
export function parseUnifiedDiff(text: string): PrDiff {
  const files: ChangedFile[] = [];
  let file: ChangedFile | null = null;
  let hunk: Hunk | null = null;
  let next = 0;
  // Lines of the current hunk body still to come, by side: inside a body, `+++ x` is an added line
  // whose text starts with "++ ", and `--- x` a removed "-- x" (a SQL or Lua comment), not file headers.
  let oldLeft = 0;
  let newLeft = 0;
  for (const line of text.split('\n')) {
    if (hunk && (oldLeft > 0 || newLeft > 0)) {
      if (line.startsWith('+')) {
        hunk.added.push({ n: next++, text: line.slice(1) });
        newLeft--;
        continue;
      }
      if (line.startsWith('-')) {
        hunk.removed.push(line.slice(1));
        oldLeft--;
        continue;
      }
      if (line.startsWith(' ') || line === '') {
        next++;
        oldLeft--;
        newLeft--;
        continue;
      }
      if (line.startsWith('\\')) continue; // "\ No newline at end of file"
      // Anything else ends the body early (a truncated patch): read it as a header below.
      oldLeft = newLeft = 0;
    }
    if (line.startsWith('diff --git ')) {
      file = null;
      hunk = null;
      continue;
    }
    if (line.startsWith('+++ ')) {
      hunk = null;
      const p = line.slice(4).trim();
      if (p === '/dev/null') {
        file = null; // deleted file: nothing to pin on the new side
        continue;
      }
      file = { file: p.replace(/^b\//, ''), hunks: [] };
      files.push(file);
      continue;
    }
    if (line.startsWith('--- ')) continue;
    const h = HUNK.exec(line);
    if (h) {
      hunk = null;
      if (!file) continue; // a hunk of a deleted file
      const start = Number(h[2]);
      const count = h[3] === undefined ? 1 : Number(h[3]);
      hunk = { start: Math.max(1, start), end: Math.max(1, start + Math.max(count, 1) - 1), added: [], removed: [] };
      file.hunks.push(hunk);
      next = start;
      oldLeft = h[1] === undefined ? 1 : Number(h[1]);
      newLeft = count;
      continue;
    }
  }
  return { files, byFile: new Map(files.map((f) => [f.file, f])) };
}

/**
 * The changed lines of `git diff <base>...HEAD` in the repo (three dots: what the PR adds on top of the
 * merge base, as GitHub shows it). Zero context lines: we want exactly what the PR touched.
 */
export function gitDiff(repo: string, base: string): Promise<PrDiff> {
  if (base.startsWith('-')) return Promise.reject(new GitError(`--base ${base} looks like a flag: pass a branch, tag or commit`));
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      ['-c', 'core.quotepath=off', 'diff', '--no-color', '--no-ext-diff', '--unified=0', '--find-renames', '--src-prefix=a/', '--dst-prefix=b/', `${base}...HEAD`, '--'],
      { cwd: repo, maxBuffer: MAX_DIFF_BYTES, encoding: 'utf8' },
      (err, stdout, stderr) => {
        if (err) {
          const why = String(stderr || err.message).trim().split('\n')[0];
          reject(new GitError(`git diff ${base}...HEAD failed in ${repo}: ${why}; check that --base names a commit of this repo (fetch it first in a shallow clone)`, { cause: err }));
          return;
        }
        resolve(parseUnifiedDiff(stdout));
      },
    );
  });
}

/** Whether a line of `file` is one the PR added or changed. */
export function isChangedLine(diff: PrDiff | undefined, file: string, line: number): boolean {
  const f = diff?.byFile.get(file);
  return !!f && f.hunks.some((h) => h.added.some((a) => a.n === line));
}

/** Whether a line of `file` lies inside one of the PR's hunks (changed, or where lines were removed). */
export function isInHunk(diff: PrDiff | undefined, file: string, line: number): boolean {
  const f = diff?.byFile.get(file);
  return !!f && f.hunks.some((h) => line >= h.start && line <= h.end);
}
