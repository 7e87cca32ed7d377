import { describe, expect, it } from 'vitest';
import { signalsFromBlocks } from '../../src/evidence/index.js';
import { locationsIn } from '../../src/evidence/read-locations.js';
import { isConsequence } from '../../src/evidence/vocabulary.js';
import { categoriseEvidence } from '../../src/extract/categorise-evidence.js';
import { logLines } from '../helpers/log.js';
import type { Block } from '../../src/evidence/index.js';

/**
 * Place and category rules read off the seventeenth batch of unseen checkers' recorded output. The jscpd, madge and
 * depcheck cases stay out of the golden set (unplaced); their lines below are quoted from their recorded logs
 * (commit 8c68500, fixtures/logs/…/log.txt).
 */
const lines = (c: string) => logLines(`fixtures/logs/${c}/log.txt`);
const block = (start: number, end: number, header = start): Block => ({ start, end, header, kind: 'diagnostic', score: 1, why: [], source: 'generic' });
const at = (c: string, text: string) => lines(c).find((l) => l.text.includes(text))!.n;
const category = (text: string) => categoriseEvidence({ matched: 'unknown', signals: [], blocks: [block(1, 1)], textOf: () => text });
const signalsOf = (c: string, from: string, to: string) => {
  const b = block(at(c, from), at(c, to));
  return signalsFromBlocks([b], lines(c), 'unknown').filter((s) => s.line !== undefined).map((s) => `${s.path}:${s.line}`);
};

describe('a place in words: on line N at column M', () => {
  it("places write-good's report in the file its heading names", () => {
    const c = 'write-good-repeated-word-ms-readme';
    expect(signalsOf(c, '"the" is repeated', '"the" is repeated')).toContain('readme.md:47');
    expect(category('"the" is repeated on line 47 at column 59')).toBe('lint');
  });
});

describe('a file, then the span it is about in brackets', () => {
  it("reads jscpd's clone rows at their first line", () => {
    expect(locationsIn('   response.js [295:20 - 305:55]')).toEqual([{ path: 'response.js', line: 295, column: 20 }]);
    expect(locationsIn(' - response.js [262:11 - 272:55] (11 lines, 78 tokens)')).toEqual([{ path: 'response.js', line: 262, column: 11 }]);
  });

  it('needs both ends of the span: a bracketed count is no place', () => {
    expect(locationsIn('built index.js [3 files]')).toEqual([]);
  });
});

describe("a checker's closing tally", () => {
  it("is a count, not a report: doc8's report is quoted, not its summary", () => {
    expect(isConsequence('Total accumulated errors = 1')).toBe(true);
    expect(isConsequence('Detailed error counts:')).toBe(true);
    expect(isConsequence('Help/command/configure_file.rst:14: D001 Line too long')).toBe(false);
    const c = 'doc8-line-too-long-cmake-configure-file';
    expect(signalsOf(c, 'D001 Line too long', 'D001 Line too long')).toContain('Help/command/configure_file.rst:14');
    expect(category('Help/command/configure_file.rst:14: D001 Line too long')).toBe('lint');
  });
});

describe('checks of the code as a whole', () => {
  it('reads a module cycle and a copy/paste report as lint', () => {
    expect(category('1) utils.js > response.js\n\n- Finding files\n✖ Found 1 circular dependency!')).toBe('lint');
    expect(category('ERROR: jscpd found too many duplicates (1.3%) over threshold (0.0%)')).toBe('lint');
  });

  it("reads a manifest checker's missing dependencies as dependency, a phrase inside a sentence not", () => {
    expect(category('Missing dependencies\n* callsites: ./index.js')).toBe('dependency');
    expect(category('Missing dependency injection token for UserService')).not.toBe('dependency');
  });
});
