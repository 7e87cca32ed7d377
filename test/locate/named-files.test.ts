import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { openWorkspace } from '../../src/repo/workspace.js';
import { linesAroundBlocks, signalsNamingCheckoutFiles } from '../../src/locate/named-files.js';
import { logLines } from '../helpers/log.js';
// @ts-expect-error plain ESM helper shared with the benchmark
import { evaluateCase } from '../../scripts/eval-cases.mjs';
import { diagnoseWithTrace } from '../../src/diagnose.js';

/**
 * A place in a syntax no location form lists, read because its token names a file of the checkout. Each case is
 * a recorded golden case whose form was added to read-locations.ts only after its batch's first sight: the reader
 * here knows none of those forms, so these are the unseen-syntax reads it has to make on its own.
 */
const CASES = join(import.meta.dirname, '../../fixtures/logs');
async function named(c: string, from: string, lines = 4) {
  const log = logLines(join(CASES, c, 'log.txt'));
  const at = log.findIndex((l) => l.text.includes(from));
  expect(at).toBeGreaterThanOrEqual(0);
  const ws = await openWorkspace(join(CASES, c, 'base'));
  return signalsNamingCheckoutFiles(log.slice(at, at + lines), ws, 'unknown');
}
const places = (s: Awaited<ReturnType<typeof named>>) => s.filter((x) => x.line !== undefined).map((x) => `${x.path}:${x.line}`);

describe('places next to a checkout file, in any syntax', () => {
  it("the flat assembler's `src/libcdemo.asm [21]:` heading", async () => {
    expect(places(await named('fasm-undefined-symbol-in-ccall-macro', 'src/libcdemo.asm [21]:'))[0]).toBe('src/libcdemo.asm:21');
  });

  it("Faust's `generator/noise.dsp : 30 : ERROR : …` fields", async () => {
    expect(places(await named('faust-missing-semicolon-noise-definition', 'noise.dsp : 30'))).toEqual(['generator/noise.dsp:30']);
  });

  it("ATS' character offset is not the line: its `(line=129, …)` is", async () => {
    const got = places(await named('patsopt-unsolved-constraint-funralist-cons', '3178(line=129'));
    expect(got).toHaveLength(1);
    expect(got[0]).toMatch(/libats\/DATS\/funralist_nested\.dats:129$/);
  });

  it("acorn's `Unexpected token (index.js 57:32)`", async () => {
    expect(places(await named('acorn-missing-plus-etag-entitytag', 'Unexpected token (index.js'))).toEqual(['index.js:57']);
  });

  it("Spin's `spin: eratosthenes.pml:36, Error: …` (a file the checkout holds under models/)", async () => {
    expect(places(await named('spin-undeclared-renamed-haschild-eratosthenes', 'spin: eratosthenes.pml:36'))).toEqual(['eratosthenes.pml:36']);
  });

  it("Icinga's `Location: in icinga2/conf.d/hosts.conf: 25:3-25:31`", async () => {
    expect(places(await named('icinga2-daemon-c-unknown-check-command-host', 'Location: in icinga2', 1))).toEqual(['icinga2/conf.d/hosts.conf:25']);
  });

  it('a report line that says it is a fault outweighs a context line naming another file (Verilator)', async () => {
    const s = await named('verilator-lint-width-narrowed-counter-tracing', '%Warning-WIDTH: sub.v:20:18', 6);
    const [warning, note] = [s.find((x) => x.path === 'sub.v'), s.find((x) => x.path === 'top.v')];
    expect(warning?.line).toBe(20);
    expect(note?.line).toBe(33);
    expect(warning!.weight).toBeGreaterThan(note!.weight);
  });

  it('a file named without a number is a file-only lead; a number past its end, a count or a version is no line', async () => {
    const ws = await openWorkspace(join(CASES, 'acorn-missing-plus-etag-entitytag', 'base'));
    const read = (text: string) => signalsNamingCheckoutFiles([{ n: 1, text }], ws, 'unknown').map((x) => x.line);
    expect(read('Run acorn --ecma2015 --silent index.js')).toEqual([undefined]);
    expect(read('index.js: 3 errors')).toEqual([undefined]);
    expect(read('index.js 1.2.3')).toEqual([undefined]);
    expect(read('index.js:99999')).toEqual([undefined]);
    expect(read('see https://github.com/jshttp/etag/blob/master/index.js:57')).toEqual([]);
  });

  it('reads around the evidence blocks only, in log order', () => {
    const lines = Array.from({ length: 40 }, (_, i) => ({ n: i + 1, text: `line ${i + 1}` }));
    expect(linesAroundBlocks([{ start: 20, end: 21 }], lines).map((l) => l.n)).toEqual(Array.from({ length: 18 }, (_, i) => i + 12));
  });
});

describe('end to end: the reader stands in when no listed form places the failure', () => {
  it("places Verilator's width warning under `%Error: Exiting due to 1 warning(s)` on sub.v:20", async () => {
    const r = await evaluateCase('verilator-lint-width-narrowed-counter-tracing', diagnoseWithTrace, { noBase: true });
    expect(`${r.diagnosis.findings[0]?.file}:${r.diagnosis.findings[0]?.line}`).toBe('sub.v:20');
  });

  it('a file named with no line does not narrow the rare-identifier search (desktop-file-validate, no diff)', async () => {
    const r = await evaluateCase('desktop-file-validate-reserved-category-fish', diagnoseWithTrace, { noBase: true });
    expect(`${r.diagnosis.findings[0]?.file}:${r.diagnosis.findings[0]?.line}`).toBe('fish.desktop:12');
  });

  it("TypeDoc's fileless `@param with name \"template\"` warning: the file its command read, at the PR's change sharing most of the report's words", async () => {
    const r = await evaluateCase('typedoc-param-name-mismatch-ts-dedent', diagnoseWithTrace);
    expect(`${r.diagnosis.findings[0]?.file}:${r.diagnosis.findings[0]?.line}`).toBe('src/index.ts:4');
  });
});

describe('ranking', () => {
  it("a log location on the PR's changed line ranks as one, even when the diff proposed that line too (esbuild's declaration note)", async () => {
    const r = await evaluateCase('tsup-assign-to-const-ts-dedent-strings', diagnoseWithTrace);
    expect(r.diagnosis.findings.slice(0, 2).map((f: { file: string; line: number }) => `${f.file}:${f.line}`)).toEqual(['src/index.ts:5', 'src/index.ts:28']);
  });
});
