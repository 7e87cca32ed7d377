import { RG_TIMEOUT_MS } from '../limits.js';
import { realRoot } from '../safety/confine.js';
import { runRipgrep, WALK_ARGS } from './ripgrep.js';

// TODO(limits): REPO_LIST_MAX_FILES — a checkout with more files than this is a monorepo we only
// partly index; 200,000 paths is ~20 MB of strings, still cheap to sort and match against.
export const REPO_LIST_MAX_FILES = 200_000;
// TODO(limits): REPO_LIST_MAX_OUTPUT_BYTES — the byte guard for that listing (~160 bytes a path on
// average), so a checkout of very long paths cannot make us buffer without bound.
const REPO_LIST_MAX_OUTPUT_BYTES = 32 * 1024 * 1024;

export interface RepoFileList {
  /** Paths relative to the repository root, `/`-separated, sorted by code unit. */
  files: string[];
  /** True when the checkout had more files than REPO_LIST_MAX_FILES (or the walk was cut): the list is partial. */
  truncated: boolean;
}

/**
 * The files of the checkout, as ripgrep sees them: hidden files included, `.git` excluded, and
 * `.gitignore` / `.ignore` honoured even without a git repository (so an ignored node_modules is
 * skipped). Symlinks are not followed. The walk is bounded in time, count and bytes; `truncated`
 * says the list is partial.
 */
export async function listRepoFiles(root: string, opts: { signal?: AbortSignal } = {}): Promise<RepoFileList> {
  const cwd = realRoot(root);
  const res = await runRipgrep(['--files', ...WALK_ARGS, '--null', '.'], {
    cwd,
    timeoutMs: RG_TIMEOUT_MS,
    maxOutputBytes: REPO_LIST_MAX_OUTPUT_BYTES,
    maxRecords: REPO_LIST_MAX_FILES,
    separator: '\0',
    signal: opts.signal,
  });
  if (res.code === 2 && res.stdout === '' && !res.truncated && !res.timedOut) {
    throw new Error(`ripgrep could not list ${cwd}: ${res.stderr.trim().split('\n')[0] ?? ''}`);
  }
  const files = res.stdout.split('\0');
  files.pop(); // after the last NUL
  for (let i = 0; i < files.length; i++) {
    const f = files[i]!;
    if (f.startsWith('./')) files[i] = f.slice(2);
  }
  files.sort();
  return { files, truncated: res.truncated || res.timedOut || res.aborted };
}
