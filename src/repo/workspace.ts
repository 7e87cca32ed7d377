import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { listRepoFiles } from './list-files.js';
import { realRoot } from '../safety/confine.js';
import { MAX_SOURCE_FILE_BYTES } from '../limits.js';

/** The checked-out repository as the locator sees it: its files and a way to read them. */
export interface Workspace {
  root: string;
  files: string[];
  fileSet: Set<string>;
  /** basename → repo paths with that basename, for suffix matching of log paths. */
  byBase: Map<string, string[]>;
  truncated: boolean;
  /** Lines of a repo file (cached), or undefined when it is missing, binary or too big. */
  lines(file: string): string[] | undefined;
}

/** Lists the checkout's files (ripgrep, .gitignore honoured) and indexes them for path mapping. */
export async function openWorkspace(root: string): Promise<Workspace> {
  const real = realRoot(root);
  const { files, truncated } = await listRepoFiles(real);
  const byBase = new Map<string, string[]>();
  for (const f of files) {
    const base = f.slice(f.lastIndexOf('/') + 1);
    const list = byBase.get(base);
    if (list) list.push(f);
    else byBase.set(base, [f]);
  }
  const fileSet = new Set(files);
  const cache = new Map<string, string[] | undefined>();
  return {
    root: real,
    files,
    fileSet,
    byBase,
    truncated,
    lines(file) {
      if (cache.has(file)) return cache.get(file);
      let out: string[] | undefined;
      if (fileSet.has(file)) {
        try {
          const p = join(real, file);
          if (statSync(p).size <= MAX_SOURCE_FILE_BYTES) {
            const buf = readFileSync(p);
            if (!buf.subarray(0, 8192).includes(0)) out = buf.toString('utf8').split(/\r?\n/);
          }
        } catch {
          out = undefined;
        }
      }
      cache.set(file, out);
      return out;
    },
  };
}

/** Paths that are never the PR's code: dependencies, vendored code, toolchains, runtime internals. */
const EXTERNAL =
  /(^|\/)(node_modules|site-packages|dist-packages|\.venv|venv|vendor|third_party|\.cargo\/registry|\.rustup|go\/pkg\/mod|\.m2|\.gradle)\/|^(node:|internal\/(?:modules|process|timers|main|bootstrap|streams|fs|util|errors|async_hooks|url|child_process|worker)\/|<anonymous>|\/usr\/(lib|local\/lib|include|share)\/|\/rustc\/|\/opt\/hostedtoolcache\/|\/usr\/local\/go\/|\/Library\/)|^(java|javax|jdk|sun|kotlin|scala)\.|\/lib\/python\d/;

/** Folders of installed or vendored dependencies: never the PR's code, even when the checkout lists them. */
const DEPENDENCY_DIR =
  /(^|\/)(node_modules|site-packages|dist-packages|\.venv|venv|vendor|third_party|\.cargo\/registry|\.rustup|go\/pkg\/mod|\.m2|\.gradle)\//;

/**
 * Where an installed Python package keeps its modules: `…/site-packages/pkg/mod.py`, or inside an egg
 * (`…/site-packages/Pkg-1.0-py3.5.egg/pkg/mod.py`). tox, `setup.py test` and `pip install .` run the tests
 * against such a copy of the project, so its frames are the project's own.
 */
const INSTALLED_PY = /(?:^|\/)(?:site|dist)-packages\/(?:[^/]+\.egg\/)?([^/].*\.pyx?)$/;

/**
 * The checkout's file that an installed copy in a log's path is (`…/site-packages/netCDF4/utils.py` →
 * `netCDF4/utils.py`), or null. The module must sit in a package folder the checkout has at its root (or
 * under src/, lib/): a lone `six.py` could be anyone's.
 */
export function installedCopyOf(ws: Workspace, logPath: string): string | null {
  const m = INSTALLED_PY.exec(normaliseLogPath(logPath));
  if (!m || !m[1]!.includes('/')) return null;
  for (const root of ['', 'src/', 'lib/']) if (ws.fileSet.has(root + m[1]!)) return root + m[1]!;
  return null;
}

/** True for a path that belongs to a dependency, the toolchain or the runtime, not the repository. */
export function isExternalPath(p: string): boolean {
  return EXTERNAL.test(p);
}

/** Absolute checkout prefixes of the CIs we know; what follows them is relative to the repo root. */
const CI_PREFIXES = [
  /^\/home\/runner\/work\/[^/]+\/[^/]+\//, // GitHub-hosted Linux
  /^\/Users\/runner\/work\/[^/]+\/[^/]+\//, // GitHub-hosted macOS
  /^[A-Za-z]:\/a\/[^/]+\/[^/]+\//, // GitHub-hosted Windows (D:\a\repo\repo\)
  /^\/__w\/[^/]+\/[^/]+\//, // GitHub job containers
  /^\/github\/workspace\//, // Docker actions
  /^\/builds\/[^/]+\/[^/]+\//, // GitLab
  /^\/home\/travis\/build\/[^/]+\/[^/]+\//, // Travis
  /^\/(app|src|workspace|code|repo|project)\//, // common Docker WORKDIRs
];

/** Normalises how a log writes a path: file:// URLs, backslashes, ./, quotes and trailing punctuation. */
export function normaliseLogPath(p: string): string {
  let s = p.trim().replace(/^["'(<[]+|["')>\],;]+$/g, '');
  if (s.startsWith('file://')) s = decodeURIComponent(s.slice(7));
  s = s.replace(/\\/g, '/');
  if (/^\/[A-Za-z]:\//.test(s)) s = s.slice(1);
  while (s.startsWith('./')) s = s.slice(2);
  return s.replace(/\/{2,}/g, '/');
}

/** The path relative to the repo root after removing a known CI checkout prefix, or the path itself. */
export function stripCiPrefix(p: string, root?: string): string {
  const s = normaliseLogPath(p);
  if (root && s.startsWith(root + '/')) return s.slice(root.length + 1);
  for (const re of CI_PREFIXES) {
    const m = re.exec(s);
    if (m) return s.slice(m[0].length);
  }
  return s;
}

export interface MappedPath {
  file: string;
  /** 'exact': the log path is this repo file; 'suffix': matched on trailing components; 'unique-name': only file with that name. */
  how: 'exact' | 'suffix' | 'unique-name';
  /** Other repo files that matched as well (the mapping is ambiguous when non-empty). */
  alternatives: string[];
}

/**
 * Maps a path as a log names it to a file of the checkout: CI prefixes, paths relative to a sub-package
 * (`src/a.ts` printed by a tool run in `packages/x`), and absolute paths of another machine, by suffix
 * matching on whole path components. Returns null for external code and for paths the repo lacks.
 */
export function mapLogPath(ws: Workspace, logPath: string, hintDir?: string): MappedPath | null {
  const rel = stripCiPrefix(logPath, ws.root);
  if (!rel) return null;
  // Installed dependencies are never ours, even in a checkout without a .gitignore that lists them;
  // the project's own installed copy is.
  if (DEPENDENCY_DIR.test(rel)) {
    const copy = installedCopyOf(ws, rel);
    return copy ? { file: copy, how: 'suffix', alternatives: [] } : null;
  }
  // A file the checkout really has is ours, whatever its path looks like (a Go package named internal/).
  if (ws.fileSet.has(rel)) return { file: rel, how: 'exact', alternatives: [] };
  if (hintDir) {
    const joined = `${hintDir}/${rel}`.replace(/^\/+/, '');
    if (ws.fileSet.has(joined)) return { file: joined, how: 'exact', alternatives: [] };
  }
  // A runtime-looking path (internal/fs/..., printed by a tool run in a sub-package) is ours only when
  // the checkout has every component of it; a suffix match on its last names alone is not enough.
  const external = isExternalPath(rel) || isExternalPath(normaliseLogPath(logPath));
  const parts = rel.split('/').filter((x) => x && x !== '.');
  const base = parts[parts.length - 1];
  if (!base) return null;
  const same = ws.byBase.get(base);
  if (!same || same.length === 0) return null;
  let best = 0;
  let winners: string[] = [];
  for (const cand of same) {
    const cparts = cand.split('/');
    let k = 0;
    while (k < parts.length && k < cparts.length && parts[parts.length - 1 - k] === cparts[cparts.length - 1 - k]) k++;
    if (k > best) {
      best = k;
      winners = [cand];
    } else if (k === best) winners.push(cand);
  }
  if (external && best < parts.length) return null;
  if (hintDir && winners.length > 1) {
    const inDir = winners.filter((w) => w.startsWith(hintDir + '/'));
    if (inDir.length) winners = inDir;
  }
  const [first, ...rest] = winners;
  if (!first) return null;
  const how = same.length === 1 && best === 1 ? 'unique-name' : 'suffix';
  return { file: first, how, alternatives: rest };
}
