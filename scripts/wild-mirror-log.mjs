// Logs of the wild corpus that came from a repository brought in with `fetch` (BugSwarm-dissection,
// BugSwarm): what `fetch` brings stays out of commits, so only their labels are committed, and the log is
// read from the mirror at run time (`$REDLINE_MIRRORS`, default /work/.mirror) into a cache folder. Without
// the mirror (CI, a fresh clone) the entry is skipped and counted, as `npm run bench:pins` does.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gitDirOf } from './bench-pins-lib.mjs';

const CACHE = join(tmpdir(), 'redline-wild-mirror');
/** The ways a label says its log was taken from the dataset's file (`source.transform`). */
const TRANSFORMS = {
  // Byte for byte.
  none: (b) => b,
  // Carriage returns (a CRLF, or a lone CR that overwrote a line) as newlines; ANSI colour sequences removed.
  'cr-newline-ansi-removed': (b) => Buffer.from(b.toString('latin1').replace(/\r\n?/g, '\n').replace(/\x1b\[[0-9;?]*[A-Za-z]/g, ''), 'latin1'),
};

/** Whether a label's log lives in a mirror (`source.log: "mirror"`), not in the folder. */
export const fromMirror = (label) => label?.source?.log === 'mirror';

/**
 * The path of entry `id`'s log, taken from its mirror (`source.dataset` at `source.commit`, file
 * `source.path`), or null when that mirror is not on this machine. Written once per commit and path.
 */
export function mirrorLogPath(id, label) {
  const { dataset, commit, path, transform = 'none' } = label.source;
  const fn = TRANSFORMS[transform];
  if (!fn) throw new Error(`fixtures/wild/${id}: unknown source.transform ${transform} (one of ${Object.keys(TRANSFORMS).join(', ')})`);
  const out = join(CACHE, `${id}-${commit.slice(0, 12)}.log`);
  if (existsSync(out)) return out;
  const gitDir = gitDirOf(dataset);
  if (!gitDir) return null;
  const raw = execFileSync('git', ['--git-dir', gitDir, 'show', `${commit}:${path}`], { maxBuffer: 256 << 20 });
  mkdirSync(CACHE, { recursive: true });
  const tmp = `${out}.${process.pid}.tmp`;
  writeFileSync(tmp, fn(raw));
  renameSync(tmp, out);
  return out;
}

/**
 * The path of fixtures/wild/<id>'s log: its committed log.txt, or its mirror's copy (null when that mirror
 * is not on this machine). For tests that read one entry.
 */
export function wildLogPath(id, wildDir = new URL('../fixtures/wild/', import.meta.url).pathname) {
  const label = JSON.parse(readFileSync(join(wildDir, id, 'label.json'), 'utf8'));
  return fromMirror(label) ? mirrorLogPath(id, label) : join(wildDir, id, 'log.txt');
}
