import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { diagnose } from '../../src/diagnose.js';
import { evidenceFromNewLines } from '../../src/evidence/new-line-evidence.js';

/**
 * The evidence with a passing log (issue 15): the failing step's new lines, in blocks, trimmed to their
 * error-bearing part. Each rule on real failed/passed pairs of the same jobs (fixtures/history-pairs,
 * BugSwarm's pairs, labelled by hand).
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PAIRS = join(ROOT, 'fixtures/history-pairs');
const run = async (name: string) => {
  const failed = join(PAIRS, name, 'failed.log');
  const d = await diagnose({ log: failed, passingLog: { source: join(PAIRS, name, 'passed.log') } });
  const labelled = new Set((JSON.parse(readFileSync(join(PAIRS, name, 'labels.json'), 'utf8')) as { errorLines: number[] }).errorLines);
  const text = readFileSync(failed, 'utf8').split('\n');
  return { d, lines: d.evidence.map((e) => e.line), labelled, raw: (n: number) => text[n - 1]! };
};

describe('evidence from the new lines of the failing step', () => {
  it('a Maven test failure: the failures and the goal line, without the plumbing frames or the "re-run with -X" advice', async () => {
    const { d, lines, labelled } = await run('jbanking-8761138559');
    expect(d.history?.alignedBy).toBe('step');
    expect(labelled.has(lines[0]!)).toBe(true);
    // Both failures with their assertion and the project's own first frame; the results list; the goal.
    for (const n of [589, 590, 591, 592, 621, 622, 623, 624, 641, 642, 643, 653]) expect(lines, `line ${n}`).toContain(n);
    const texts = d.evidence.map((e) => e.text);
    expect(texts.some((t) => /at org\.apache\.maven\.|at org\.codehaus\.plexus/.test(t))).toBe(false);
    expect(texts.some((t) => /Re-run Maven|\[Help 1\]|Please refer to|For more information/.test(t))).toBe(false);
    expect(d.evidenceBlocks.every((b) => b.source === 'diff')).toBe(true);
  });

  it('a line the passing run printed too is not quoted, even where a matcher would (a compiler warning above the error)', async () => {
    const { d, lines, raw } = await run('grasscutter-7801445827');
    // javac's deprecation warning (line 621) and its notes were printed by the passing build as well.
    expect(raw(621)).toMatch(/warning: \[removal\]/);
    expect(lines).not.toContain(621);
    expect(d.evidence.some((e) => /^Note: /.test(e.text))).toBe(false);
    expect(lines[0]).toBe(624);
  });

  it('a trace that only restates the goal failure (Maven -e) is left out; the rule\'s own message above it is kept', async () => {
    const { lines, raw } = await run('travis-sonarsource-sonar-java-414054533');
    expect(raw(10431)).toMatch(/LifecycleExecutionException: Failed to execute goal/);
    expect(lines).not.toContain(10431);
    expect(lines).toEqual(expect.arrayContaining([10391, 10430]));
  });

  it('errors printed again by the build tool are quoted once, at their first', async () => {
    const { lines, raw } = await run('travis-ikasaneip-ikasan-372813694');
    expect(raw(14534)).toContain(raw(14371).replace('[ERROR] ', '').slice(0, 80));
    expect(lines).toContain(14371);
    expect(lines).not.toContain(14534);
  });

  it('routine low-level lines open no block, even when they name the failure (Maven\'s reactor "FAILURE [5 s]"); Gradle\'s task echo is left out', async () => {
    const ttl = await run('ttl-8267344544');
    expect(ttl.raw(937)).toMatch(/\[INFO\] .* FAILURE \[/);
    expect(ttl.lines).not.toContain(937);
    const spectator = await run('spectator-8295325184');
    expect(spectator.raw(1303)).toMatch(/> Task :\S+ FAILED/);
    expect(spectator.lines).not.toContain(1303);
    expect(spectator.lines[0]).toBe(1299);
  });

  it('seven failures of one shape: two are quoted, the results list and the goal fit beside them, within 40 lines and 6 blocks', async () => {
    const { d, lines } = await run('travis-adobe-consulting-services-acs-aem-commons-358605962');
    expect(d.evidence.length).toBeLessThanOrEqual(40);
    expect(d.evidenceBlocks.length).toBeLessThanOrEqual(6);
    expect(lines).toEqual(expect.arrayContaining([5427, 5428, 5429, 5430, 7663, 7664, 7670, 7688]));
  });

  it('no new line says anything failed: nothing, so the caller falls back to the evidence without the passing log', () => {
    const lines = readFileSync(join(PAIRS, 'jbanking-8761138559/failed.log'), 'utf8').split('\n').map((text, i) => ({ n: i + 1, text: text.slice(29) }));
    expect(evidenceFromNewLines(lines, new Set()).lines).toEqual([]);
    // Only "passed" counts and progress are new: still nothing.
    const benign = new Set(lines.filter((l) => /Tests run: \d+, Failures: 0|Download/.test(l.text)).map((l) => l.n));
    expect(benign.size).toBeGreaterThan(10);
    expect(evidenceFromNewLines(lines, benign).lines).toEqual([]);
  });
});
