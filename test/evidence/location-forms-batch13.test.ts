import { describe, expect, it } from 'vitest';
import { findGenericBlocks, locationsIn, signalsFromBlocks } from '../../src/evidence/index.js';
import { categoriseEvidence } from '../../src/extract/categorise-evidence.js';
import { gccMatcher } from '../../src/extract/matchers/gcc.js';
import { logLines } from '../helpers/log.js';
import type { Block } from '../../src/evidence/index.js';
// @ts-expect-error plain ESM helper shared with the benchmark
import { evaluateCase } from '../../scripts/eval-cases.mjs';
import { diagnoseWithTrace } from '../../src/diagnose.js';

/** Location forms, block, category and pin rules read off the thirteenth batch of unseen toolchains' recorded output (fixtures/logs). */
const lines = (c: string) => logLines(`fixtures/logs/${c}/log.txt`);
const block = (start: number, end: number, header = start): Block => ({ start, end, header, kind: 'diagnostic', score: 1, why: [], source: 'generic' });
const textOf = (c: string, text: string) => lines(c).find((l) => l.text.includes(text))!.text;
const at = (c: string, text: string) => lines(c).find((l) => l.text.includes(text))!.n;
const category = (text: string) => categoriseEvidence({ matched: 'unknown', signals: [], blocks: [block(1, 1)], textOf: () => text });

describe('location forms of the thirteenth unseen batch', () => {
  it("reads a place inside a wrapped error's chain (Caddy's `Error: adapting config using caddyfile: caddy/Caddyfile:19: …`)", () => {
    expect(locationsIn(textOf('caddy-validate-unrecognized-directive-caddyfile', 'unrecognized directive'))).toEqual([{ path: 'caddy/Caddyfile', line: 19 }]);
    // a URL's host and port are no place
    expect(locationsIn('Error: fetching: https://proxy.example.com/x:443: refused')).toEqual([]);
  });

  it("reads Spin's `spin: eratosthenes.pml:36, Error: …` (a comma, then the severity)", () => {
    expect(locationsIn(textOf('spin-undeclared-renamed-haschild-eratosthenes', 'undeclared variable'))).toEqual([{ path: 'eratosthenes.pml', line: 36 }]);
  });

  it("reads Varnish's `('/x/varnish/default.vcl' Line 28 Pos 5)`", () => {
    expect(locationsIn(textOf('varnishd-c-missing-semicolon-default-vcl', "' Line 28"))).toEqual([
      { path: expect.stringMatching(/\/varnish\/default\.vcl$/), line: 28 },
    ]);
  });
});

describe('blocks and places of the thirteenth unseen batch', () => {
  const signalsOf = (c: string, from: string, to: string) => {
    const all = lines(c);
    const b = block(at(c, from), at(c, to));
    return signalsFromBlocks([b], all, 'unknown').filter((s) => s.line !== undefined).map((s) => `${s.path}:${s.line}`);
  };

  it("heads GLPK's block with its place though a context line stands between (`a.mod:38: I not defined`, `Context: …`, `… processing error`)", () => {
    const c = 'glpsol-undefined-renamed-set-assign';
    const n = at(c, 'I not defined');
    const step = lines(c).filter((l) => l.n >= n - 1 && l.n <= n + 2);
    expect(findGenericBlocks({ lines: step }).map((b) => b.header)).toContain(n);
  });

  it("heads lighttpd's vague `… line: 59 pos: 0 parser failed somehow` with the line above that says what is wrong", () => {
    const c = 'lighttpd-t-duplicate-index-file-names';
    const n = at(c, 'Duplicate config variable');
    const step = lines(c).filter((l) => l.n >= n && l.n <= n + 1);
    expect(findGenericBlocks({ lines: step }).map((b) => b.header)).toContain(n);
  });

  it("places a report table's rows in the file their heading names (PHP_CodeSniffer's ` 34 | ERROR |`, CoffeeLint's `✗ #29-29:`)", () => {
    expect(signalsOf('phpcs-implicit-comparison-csv-report', 'FOUND 2 ERRORS', 'Operator ! prohibited')).toContain('src/Reports/Csv.php:34');
    expect(signalsOf('coffeelint-throwing-string-bottleneck-batcher', 'src/Batcher.coffee', 'Throwing strings')).toContain('src/Batcher.coffee:29');
  });

  it("places a parser's exception that ends in its place and names no file in the file its step's command names (js-yaml)", () => {
    const c = 'js-yaml-unidentified-alias-cpan-distroprefs';
    expect(signalsOf(c, 'YAMLException', 'YAMLException')).toEqual(['CPAN/Kwalify/distroprefs.yml:32']);
    expect(category(textOf(c, 'YAMLException'))).toBe('compile');
  });

  it("places a report by the place in parentheses printed just below it (Varnish's VCC)", () => {
    const c = 'varnishd-c-missing-semicolon-default-vcl';
    const s = signalsOf(c, "Expected ';' got '}'", "Expected ';' got '}'");
    expect(s).toEqual([expect.stringMatching(/\/varnish\/default\.vcl:28$/)]);
    // a place below that is not in parentheses opens the next report: the block takes none from it
    const next = [
      { n: 1, text: 'error: something broke' },
      { n: 2, text: 'src/next.c:4:2: error: another report' },
    ];
    expect(signalsFromBlocks([block(1, 1)], next, 'unknown').filter((x) => x.line !== undefined)).toEqual([]);
  });

  it('calls what the batch reported by its kind', () => {
    expect(category(textOf('caddy-validate-unrecognized-directive-caddyfile', 'unrecognized directive'))).toBe('compile');
    expect(category(textOf('pydocstyle-missing-docstring-exported-has-magic', 'Missing docstring'))).toBe('lint');
    expect(category(textOf('phpcs-implicit-comparison-csv-report', 'FOUND 2 ERRORS'))).toBe('lint');
    expect(category(textOf('varnishd-c-missing-semicolon-default-vcl', "Expected ';' got"))).toBe('compile');
  });

  it("has the gcc matcher call Doxygen's reports on doc comments lint, and a compiler's error still compile", () => {
    const doxygen = gccMatcher.extract(lines('doxygen-param-renamed-yaml-set-input-string'));
    expect(doxygen.length).toBeGreaterThan(0);
    expect(doxygen.every((s) => s.category === 'lint')).toBe(true);
    expect(gccMatcher.extract([{ n: 1, text: "src/a.c:3:5: error: 'x' undeclared (first use in this function)" }]).map((s) => s.category)).toEqual(['compile']);
  });
});

describe('pins of the thirteenth unseen batch (with the PR diff)', () => {
  // Each a rule in src/locate/from-signals.ts; the reported line is not the one the PR broke.
  const cases: [string, string][] = [
    ['doxygen-param-renamed-yaml-set-input-string', "a doc comment's report takes the changed declaration it documents"],
    ['sdcc-missing-semicolon-atof', 'a parser naming no token takes the change above that dropped its separator'],
    ['varnishd-c-missing-semicolon-default-vcl', 'a missing separator reported on an added closing brace takes the statement above'],
    ['spin-undeclared-renamed-haschild-eratosthenes', 'an undeclared name reported a line late takes the line above that has it'],
    ['terser-unclosed-guard-balanced-match', "a report past the file's end takes the change that opened a bracket"],
    ['ksh-n-missing-then-gzip-zgrep', "a shell's unexpected `fi` takes the change that dropped its `then`"],
    ['lighttpd-t-duplicate-index-file-names', 'a report whose words are on the changed line above takes it'],
  ];
  for (const [name, why] of cases) {
    it(`${name}: ${why}`, async () => {
      const r = await evaluateCase(name, diagnoseWithTrace);
      expect(r.top1Line, `${r.diagnosis.findings[0]?.file}:${r.diagnosis.findings[0]?.line}`).toBe(true);
      expect(r.categoryOk).toBe(true);
    });
  }
});
