// Builds fixtures/real-pins/<case>/case.json from the BugSwarm dissection (tdurieux/BugSwarm-dissection,
// brought here with the search tool's `fetch`) and the projects' own mirrors. Run by hand, once:
//   node scripts/bench-pins-corpus.mjs <case> <owner/repo> <failing sha> [...more triples from stdin]
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
for (const [id, repo, failing] of triples) {
  const gdir = gitDirOf(repo);
  const patch = git(ddir, 'show', `${dcommit}:BugSwarm/${id}/patch.diff`);
  const log = git(ddir, 'show', `${dcommit}:BugSwarm/${id}/failing.log`);
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
    log: { dataset: DISSECTION, path: `BugSwarm/${id}/failing.log`, commit: dcommit },
    fix: { dataset: DISSECTION, path: `BugSwarm/${id}/patch.diff`, commit: dcommit },
    accept,
    licence: 'BugSwarm dataset (BSD-3-Clause); the project\'s own licence for its tree',
  };
  mkdirSync(join(ROOT, 'fixtures', 'real-pins', id), { recursive: true });
  writeFileSync(join(ROOT, 'fixtures', 'real-pins', id, 'case.json'), JSON.stringify(c, null, 2) + '\n');
  console.log(id, accept.length, 'accepted lines', lang, build);
}
