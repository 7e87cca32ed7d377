// Builds fixtures/real-pins/<case>/case.json from the BugSwarm dissection (tdurieux/BugSwarm-dissection,
// brought here with the search tool's `fetch`) and the projects' own mirrors. Run by hand, once:
//   echo '<case> <owner/repo> <failing sha | -> [held-back]' | node scripts/bench-pins-corpus.mjs   (one line per case)
// With `-` (a pull-request build: its log checks out FETCH_HEAD, or a commit the mirror no longer has) the
// failing tree is the newest commit of the mirror whose tree holds every pre-image blob of the fix's diff
// (the dissection's buggy_files), and `tree` says so. A trailing `held-back` pins the case to that half
// (cases added after the first split; see halfOf in bench-pins.mjs).
// It writes only labels: which log (dataset, path, commit), which tree (repo, failing commit, its parent),
// and the accepted lines (the lines the real fix changed, in the failing tree's coordinates). Logs and
// trees are read from the mirrors at bench time (what `fetch` brings is kept out of commits).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DISSECTION, gitDirOf, fixLines } from './bench-pins-lib.mjs';

const ROOT = new URL('..', import.meta.url).pathname;
const git = (dir, ...a) => {
  const r = spawnSync('git', [`--git-dir=${dir}`, ...a], { encoding: 'utf8', maxBuffer: 256 << 20 });
  if (r.status !== 0) throw new Error(`git ${a.join(' ')}: ${r.stderr.trim()}`);
  return r.stdout;
};

const triples = readFileSync(0, 'utf8').trim().split('\n').map((l) => l.trim().split(/\s+/));
const ddir = gitDirOf(DISSECTION);
const dcommit = git(ddir, 'rev-parse', 'HEAD').trim();
/** The newest commit whose tree holds every file the fix changed exactly as the fix found it, or null. */
function byPreImage(gdir, id, patch) {
  const files = [...patch.matchAll(/^--- a\/(.+)$/gm)].map((m) => m[1].replace(/\t.*$/, ''));
  const blobs = files.map((f) => git(ddir, 'rev-parse', `${dcommit}:BugSwarm/${id}/buggy_files/${f}`).trim());
  const cands = new Set();
  // Tolerant: a mirror may lack its largest blobs, which `log --find-object` then stops at.
  const out = (...a) => spawnSync('git', [`--git-dir=${gdir}`, ...a], { encoding: 'utf8', maxBuffer: 256 << 20 }).stdout ?? '';
  for (const b of blobs) for (const c of out('log', '--all', '--format=%H', `--find-object=${b}`).split('\n').filter(Boolean)) cands.add(c);
  const has = (c) => files.every((f, i) => out('rev-parse', `${c}:${f}`).trim() === blobs[i]);
  const dated = [...cands].filter(has).map((c) => [c, Number(git(gdir, 'show', '-s', '--format=%ct', c))]).sort((a, b) => b[1] - a[1]);
  return dated[0]?.[0] ?? null;
}

/** Each file's hunks as [first old line, the old lines (context and removed)], in the fix's coordinates. */
function oldHunks(patch) {
  const out = new Map();
  let file = null, cur = null;
  for (const l of patch.split('\n')) {
    if (l.startsWith('--- ')) { file = l === '--- /dev/null' ? null : l.slice(4).replace(/^a\//, '').replace(/\t.*$/, ''); continue; }
    if (l.startsWith('+++ ') || l.startsWith('diff --git ')) continue;
    const h = /^@@ -(\d+)/.exec(l);
    if (h) { cur = [Number(h[1]), []]; if (file) (out.get(file) ?? out.set(file, []).get(file)).push(cur); continue; }
    if (cur && file && (l.startsWith(' ') || l.startsWith('-'))) cur[1].push(l.slice(1));
  }
  return out;
}
/**
 * When no mirror commit holds the pre-image's blobs (a pull request's branch that was squashed or rebased,
 * or line endings stored differently), the newest commit touching the fixed files where every hunk's old
 * lines sit at exactly the fix's line numbers: the fix's accepted lines then mean the same code there.
 */
function byHunks(gdir, patch) {
  const hunks = oldHunks(patch);
  const files = [...hunks.keys()];
  if (!files.length) return null;
  const out = (...a) => spawnSync('git', [`--git-dir=${gdir}`, ...a], { encoding: 'utf8', maxBuffer: 256 << 20 }).stdout ?? '';
  const cands = out('log', '--all', '--format=%H', '-n', '600', '--', files[0]).split('\n').filter(Boolean);
  const fits = (c) => files.every((f) => {
    const lines = out('show', `${c}:${f}`).replace(/\r/g, '').split('\n');
    return hunks.get(f).every(([start, old]) => old.every((t, i) => lines[start - 1 + i] === t.replace(/\r/g, '')));
  });
  return cands.find(fits) ?? null;
}

for (const [id, repo, given, half] of triples) {
  const gdir = gitDirOf(repo);
  const patch = git(ddir, 'show', `${dcommit}:BugSwarm/${id}/patch.diff`);
  const log = git(ddir, 'show', `${dcommit}:BugSwarm/${id}/failing.log`);
  const pre = given === '-' ? byPreImage(gdir, id, patch) : null;
  const hunked = given === '-' && !pre ? byHunks(gdir, patch) : null;
  const failing = given === '-' ? pre ?? hunked : given;
  if (!failing) { console.log(id, 'skipped: no commit of the mirror holds the pre-image, nor the fix\'s hunks at their lines'); continue; }
  const parent = git(gdir, 'rev-parse', `${failing}^`).trim();
  const accept = fixLines(patch);
  const lang = accept.some((a) => a.file.endsWith('.py')) ? 'python' : 'java';
  const build = lang === 'python' ? (/py\.?test/.test(log) ? 'pytest' : /nosetests/.test(log) ? 'nose' : 'unittest') : /gradle/i.test(log) && !/\bmvn\b.*(test|install|verify)/.test(log) ? 'gradle' : 'maven';
  const c = {
    id,
    repo,
    language: lang,
    toolchain: build,
    failing,
    base: parent,
    ...(pre ? { tree: 'pre-image: the newest mirror commit holding every file the fix changed as it found it; base is its parent, not the breaking commit' } : {}),
    ...(hunked ? { tree: 'hunks: no mirror commit holds the pre-image; the newest commit touching the fixed files whose lines match every hunk of the fix at its line numbers; base is its parent, not the breaking commit' } : {}),
    ...(half ? { half } : {}),
    log: { dataset: DISSECTION, path: `BugSwarm/${id}/failing.log`, commit: dcommit },
    fix: { dataset: DISSECTION, path: `BugSwarm/${id}/patch.diff`, commit: dcommit },
    accept,
    licence: 'BugSwarm dataset (BSD-3-Clause); the project\'s own licence for its tree',
  };
  mkdirSync(join(ROOT, 'fixtures', 'real-pins', id), { recursive: true });
  writeFileSync(join(ROOT, 'fixtures', 'real-pins', id, 'case.json'), JSON.stringify(c, null, 2) + '\n');
  console.log(id, accept.length, 'accepted lines', lang, build);
}
