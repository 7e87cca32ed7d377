import { describe, expect, it } from 'vitest';
import { locationsIn, signalsFromBlocks } from '../../src/evidence/index.js';
import { headerAbove } from '../../src/evidence/grow-block.js';
import { categoriseEvidence } from '../../src/extract/categorise-evidence.js';
import { logLines } from '../helpers/log.js';
import type { Block } from '../../src/evidence/index.js';

/** Location forms and block rules read off the tenth batch of unseen toolchains' recorded output (fixtures/logs). */
const lines = (c: string) => logLines(`fixtures/logs/${c}/log.txt`);
const block = (start: number, end: number, header = start): Block => ({ start, end, header, kind: 'diagnostic', score: 1, why: [], source: 'generic' });
const textOf = (c: string, text: string) => lines(c).find((l) => l.text.includes(text))!.text;
const at = (c: string, text: string) => lines(c).find((l) => l.text.includes(text))!.n;

describe('location forms of the tenth unseen batch', () => {
  it("reads a severity label that names its phase, jsonnet's `STATIC ERROR: a.jsonnet:36:24-29:`", () => {
    expect(locationsIn(textOf('jsonnet-unknown-variable-sours-oo', 'STATIC ERROR'))).toEqual([{ path: 'examples/sours-oo.jsonnet', line: 36, column: 24 }]);
    expect(locationsIn('Build step took 12:30: done')).toEqual([]);
  });

  it("reads fish's `a.fish (line 48): …` leading its line, and GNU sed's `file a.sed line 45:`", () => {
    expect(locationsIn(textOf('fish-n-bracketed-variable-alias', '(line 48)'))).toEqual([{ path: 'share/functions/alias.fish', line: 48 }]);
    expect(locationsIn(textOf('sed-unterminated-s-command-dc', 'line 45'))).toEqual([{ path: 'examples/dc.sed', line: 45 }]);
    expect(locationsIn('the file was read line 45 times')).toEqual([]);
  });

  it("reads zsh's GNU header on an extensionless script with a directory, `Functions/Misc/is-at-least:47: parse error`", () => {
    expect(locationsIn(textOf('zsh-n-missing-fi-is-at-least', 'parse error'))).toEqual([{ path: 'Functions/Misc/is-at-least', line: 47 }]);
    expect(locationsIn('is-at-least:47: parse error')).toEqual([]);
  });

  it("gives HTMLHint's fileless `… on line 39. (tag-pair)` (a sentence's full stop) the file it printed above", () => {
    const c = 'htmlhint-unpaired-tag-pino-docs';
    const n = at(c, 'Tag must be paired');
    expect(signalsFromBlocks([block(n - 1, n)], lines(c), 'lint')).toMatchObject([{ path: expect.stringMatching(/docs\/index\.html$/), line: 39 }]);
  });

  it("heads a caret's block with the located report above the source line it quotes (fish)", () => {
    const ls = lines('fish-n-bracketed-variable-alias');
    const warning = ls.findIndex((l) => l.text.startsWith('warning: Error while reading'));
    expect(ls[headerAbove(ls, warning)]!.text).toMatch(/^share\/functions\/alias\.fish \(line 48\)/);
  });

  it("places Rhino's `line 1: Compilation produced 1 syntax errors.` on the report it counts, just above", () => {
    const c = 'rhino-missing-paren-ms-parse';
    const n = at(c, 'Compilation produced');
    const s = signalsFromBlocks([block(n, n + 1)], lines(c), 'compile');
    const best = [...s].sort((a, b) => b.weight - a.weight)[0];
    expect(best).toMatchObject({ path: 'index.js', line: 59 });
  });

  it('calls a lineless `file: error:` report compile, and a report naming its kebab-case rule in parentheses lint', () => {
    const desktop = textOf('desktop-file-validate-reserved-category-fish', 'fish.desktop: error');
    const b = block(1, 1);
    expect(categoriseEvidence({ matched: 'unknown', signals: [], blocks: [b], textOf: () => desktop })).toBe('compile');
    const hint = textOf('htmlhint-unpaired-tag-pino-docs', 'Tag must be paired');
    expect(categoriseEvidence({ matched: 'unknown', signals: [], blocks: [b], textOf: () => hint })).toBe('lint');
  });
});
