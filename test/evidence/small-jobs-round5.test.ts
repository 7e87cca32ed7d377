import { describe, expect, it } from 'vitest';
import { createReadStream, readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { diagnose } from '../../src/diagnose.js';
import { openLog } from '../../src/log/open-log.js';
import { ghRunViewJob } from '../../src/log/clean.js';
import { errorScore } from '../../src/evidence/vocabulary.js';
import { buildkitRecap } from '../../src/evidence/restated-annotations.js';
import { hasWildLog, wildLog, wildLineNo } from '../helpers/wild.js';

/**
 * Issue 14's fifth round on small projects' Actions jobs (session 28): one rule per test, each on the real
 * log that showed it (read from its fetched mirror; skipped where the mirror is not on the machine).
 */
const diagnosis = async (id: string) => diagnose({ log: wildLog(id) });
const evidenceOf = async (id: string) => (await diagnosis(id)).evidence.map((e) => e.line);
const onMirror = (id: string) => (hasWildLog(id) ? it : it.skip);
/** The UTF-16LE file's text as a person reads it (line numbers are the file's: a newline is one either way). */
const collect = async (it: AsyncIterable<Buffer>) => {
  const out: Buffer[] = [];
  for await (const b of it) out.push(b);
  return Buffer.concat(out).toString('utf8');
};
const utf16Lines = (id: string) => new TextDecoder('utf-16le').decode(readFileSync(wildLog(id))).split('\n');

describe("the fifth small-jobs round's rules", () => {
  const prTitle = 'gha-small-pr-title-check-utf16';
  onMirror(prTitle)('a log saved as UTF-16LE (Windows PowerShell redirecting `gh run view --log-failed`) is transcoded before it is read', async () => {
    const raw = readFileSync(wildLog(prTitle));
    expect([raw[0], raw[1]]).toEqual([0xff, 0xfe]);
    const text = utf16Lines(prTitle);
    const verdict = text.findIndex((l) => /PR title should start with WU-X\.X\.X/.test(l) && !/echo/.test(l)) + 1;
    const d = await diagnosis(prTitle);
    expect(d.failingStep?.startLine).toBe(1);
    // The verdict opens the evidence. (Its `Example: …` line below was quoted too until session 29 read the
    // verdict's `Γ¥î` as the `❌` it is (cp437 repair): the generic block is now that line alone.)
    expect(d.evidence.map((e) => e.line)[0]).toBe(verdict);
    // Chunk borders that split a UTF-16 code unit (odd sizes) decode the same as the whole file.
    const whole = await collect(openLog(createReadStream(wildLog(prTitle))));
    const pieces: Buffer[] = [];
    for (let k = 0; k < raw.length; k += 7) pieces.push(raw.subarray(k, k + 7));
    const chunked = await collect(openLog(Readable.from(pieces)));
    expect(chunked).toBe(whole);
    expect(whole.split('\n').length).toBe(raw.toString('latin1').split('\n').length);
    expect(whole.includes('\u0000')).toBe(false);
  });

  const twoJobs = 'gha-small-pytest-numpy-dtype-utf16';
  onMirror(twoJobs)("in `gh run view --log-failed` text of two jobs failing alike, the first job's failing step is read, not the later job's", async () => {
    const text = utf16Lines(twoJobs);
    expect(ghRunViewJob(text[0]!.replace(/^\uFEFF/, ''))).toBe('Test (Python 3.9)');
    const secondJob = text.findIndex((l) => l.startsWith('Test (Python 3.10)\t')) + 1;
    expect(secondJob).toBeGreaterThan(1);
    const d = await diagnosis(twoJobs);
    expect(d.failingStep?.startLine).toBe(1);
    expect(d.failingStep!.endLine).toBeLessThan(secondJob);
  });

  const wholeRun = 'gha-small-biome-format-gh-run-view';
  onMirror(wholeRun)('in `gh run view --log` text of a whole run, a job that exited non-zero is read before a later job only cancelled', async () => {
    const biome = wildLineNo(wholeRun, /^Frontend Lint & Quality\tLint & Format \(Biome\)\t.*##\[group\]Run npm run lint/);
    const cancelled = wildLineNo(wholeRun, /##\[error\]The operation was canceled\./);
    expect(cancelled).toBeGreaterThan(biome);
    const d = await diagnosis(wholeRun);
    expect(d.failingStep?.startLine).toBe(biome);
    expect(d.evidence.map((e) => e.line)).toContain(wildLineNo(wholeRun, /Biome\)\t.*Found 1 error\./));
  });

  const release = 'gha-small-release-it-npm-eneedauth';
  onMirror(release)("npm's warn level is a note, also under a wrapper's `ERROR` (release-it relaying npm's stderr)", async () => {
    const relayed = wildLineNo(release, /Z ERROR npm warn publish npm auto-corrected/);
    const text = readFileSync(wildLog(release), 'utf8').split('\n')[relayed - 1]!.replace(/^\S+Z /, '');
    expect(errorScore(text)).toBeLessThan(0.5);
    expect(errorScore('npm error need auth This command requires you to be logged in to https://registry.npmjs.org/')).toBeGreaterThanOrEqual(0.5);
    const lines = await evidenceOf(release);
    expect(lines).not.toContain(relayed);
    expect(lines[0]).toBe(wildLineNo(release, /npm error need auth This command requires/));
  });

  const pip = 'gha-small-pip-no-matching-distribution-gh-run-view';
  onMirror(pip)("pip's notes on the versions it passed over (`ERROR: Ignored the following yanked versions`) are not its error", async () => {
    const yanked = wildLineNo(pip, /ERROR: Ignored the following yanked versions/);
    expect(errorScore('ERROR: Ignored the following yanked versions: 2.6, 2.6.1')).toBeLessThan(0.5);
    const lines = await evidenceOf(pip);
    expect(lines).not.toContain(yanked);
    expect(lines).toContain(wildLineNo(pip, /ERROR: No matching distribution found for networkx/));
  });

  const dotnet = 'gha-small-docker-dotnet-cs0023';
  onMirror(dotnet)("BuildKit's recap of a failed instruction's last output lines (between `------` rules) restates them: not quoted again", async () => {
    const first = wildLineNo(dotnet, /Z #19 11\.02 \/app\/src\/Catalog\.API\/Extensions\/Extensions\.cs\(42,20\): error CS0023/);
    const recap = wildLineNo(dotnet, /Z 11\.02 \/app\/src\/Catalog\.API\/Extensions\/Extensions\.cs\(42,20\): error CS0023/);
    expect(recap).toBeGreaterThan(first);
    const raw = readFileSync(wildLog(dotnet), 'utf8').split('\n').map((text, k) => ({ n: k + 1, text: text.replace(/^\S+Z /, '') }));
    expect([...buildkitRecap(raw)]).toEqual(expect.arrayContaining([recap, recap + 1]));
    const lines = await evidenceOf(dotnet);
    expect(lines).toEqual([first, first + 1]);
  });
});
