import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM helper shared with the benchmark
import { evaluateCase } from '../../scripts/eval-cases.mjs';
import { diagnoseWithTrace } from '../../src/diagnose.js';
import { locationsIn } from '../../src/evidence/read-locations.js';
import { categoriseEvidence } from '../../src/extract/categorise-evidence.js';
import { logLines } from '../helpers/log.js';
import type { Block } from '../../src/evidence/index.js';

/** Place, category and locate rules read off batch 23's unseen registry toolchains (p21gen), on their recorded logs. */
const lines = (c: string) => logLines(`fixtures/logs/${c}/log.txt`);
const block = (start: number, end: number): Block => ({ start, end, header: start, kind: 'diagnostic', score: 1, why: [], source: 'generic' });
const category = (text: string) => categoriseEvidence({ matched: 'unknown', signals: [], blocks: [block(1, 1)], textOf: () => text });
const recorded = (c: string, has: string) => lines(c).find((l) => l.text.includes(has))!.text;
/** A case's recorded lines from the first holding `from` to the first holding `to`, as one block's text. */
const span = (c: string, from: string, to: string) => {
  const all = lines(c);
  const i = all.findIndex((l) => l.text.includes(from));
  const j = all.findIndex((l, k) => k >= i && l.text.includes(to));
  return all.slice(i, j + 1).map((l) => l.text).join('\n');
};

describe('places', () => {
  it("reads a file then its line and column in brackets after a colon and a space (luaparse)", () => {
    expect(locationsIn(recorded('luaparse-missing-plus-creole-list-item', "')' expected"))).toEqual([{ path: 'data/creole.lua', line: 45, column: 18 }]);
    expect(locationsIn('src/a.lua:[12,5] x')).toEqual([{ path: 'src/a.lua', line: 12, column: 5 }]);
  });
});

describe('categories', () => {
  it('a number or name given twice where one is allowed is a fault, so compile, not lint (buf)', () => {
    expect(category(recorded('buf-build-duplicate-field-number-universe-descriptor', 'used more than once'))).toBe('compile');
    expect(category('a/b.proto:36:36:field number `8` used once')).toBe('lint');
  });

  it("a parser's `when expecting` and `check your syntax` are compile (Hjson)", () => {
    expect(category(recorded('hjson-unclosed-keywords-array-tiny-invariant-package', 'when expecting'))).toBe('compile');
  });

  it('a JSON pointer that resolves to nothing is compile (swagger-cli)', () => {
    expect(category(recorded('swagger-cli-missing-ref-renamed-schema-petstore-expanded', 'does not exist'))).toBe('compile');
    expect(category('Error resolving $ref pointer "a.yaml#/components/schemas/X".')).toBe('compile');
  });

  it("a tally of rule violations and a finding headed by its severity and rule are lint (dependency-cruiser)", () => {
    expect(category(span('depcruise-no-circular-layer-route-express', 'error no-circular', 'dependency violations'))).toBe('lint');
    expect(category('x 1 dependency violations (1 errors, 0 warnings). 48 modules, 82 dependencies cruised.')).toBe('lint');
  });
});

describe('locate with the diff: a late parse report', () => {
  it('takes the changed line above it whose change only took code out (luaparse, Hjson, json5)', async () => {
    for (const [c, want] of [
      ['luaparse-missing-plus-creole-list-item', 44],
      ['hjson-unclosed-keywords-array-tiny-invariant-package', 12],
      ['json5-missing-comma-range-parser-package', 11],
    ] as const) {
      const r = await evaluateCase(c, diagnoseWithTrace, {});
      expect(r.diagnosis.findings[0]?.line, c).toBe(want);
    }
  });
});

describe('second round (after the held-out five)', () => {
  it("a report whose kebab-case rule id in parentheses comes just before its place is lint (markuplint)", () => {
    expect(category(recorded('markuplint-duplicate-id-dropdown-bootstrap-starter', '(id-duplication)'))).toBe('lint');
    expect(category('error: x is duplicated (id-duplication) /x/index.html:34:54 and more')).not.toBe('lint');
  });
});
