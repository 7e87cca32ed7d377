import { describe, expect, it } from 'vitest';
import { signalsFromBlocks, errorScore } from '../../src/evidence/index.js';
import { locationsIn } from '../../src/evidence/read-locations.js';
import { blockEnd } from '../../src/evidence/grow-block.js';
import { categoriseEvidence } from '../../src/extract/categorise-evidence.js';
import { logLines } from '../helpers/log.js';
import type { Block } from '../../src/evidence/index.js';

/**
 * Place and category rules read off the eighteenth batch of unseen toolchains' recorded output (fixtures/logs/…/log.txt).
 * The rules that need the checkout and the PR's diff (Bison's `expecting ';'` past `#` comments, a YAML report inside a
 * document's front matter, a quoted directive's uncommented line) are held by the golden cases themselves.
 */
const lines = (c: string) => logLines(`fixtures/logs/${c}/log.txt`);
const block = (start: number, end: number, header = start): Block => ({ start, end, header, kind: 'diagnostic', score: 1, why: [], source: 'generic' });
const at = (c: string, text: string) => lines(c).find((l) => l.text.includes(text))!.n;
const category = (text: string, stepName?: string) => categoriseEvidence({ matched: 'unknown', signals: [], blocks: [block(1, 1)], textOf: () => text, ...(stepName ? { stepName } : {}) });
const signalsOf = (c: string, from: string, to: string) => {
  const b = block(at(c, from), at(c, to));
  return signalsFromBlocks([b], lines(c), 'unknown').filter((s) => s.line !== undefined).map((s) => `${s.path}:${s.line}`);
};

describe('a file, then its line in brackets', () => {
  it("reads the Korn shell's `mksh/mkshrc[249]:` after a severity label", () => {
    expect(locationsIn('E: mksh/mkshrc[249]: syntax error: unexpected \'then\'')).toEqual([{ path: 'mksh/mkshrc', line: 249 }]);
    expect(locationsIn('radiusd.conf[12]: Parse error in reference')).toEqual([{ path: 'radiusd.conf', line: 12 }]);
  });

  it("needs a file's shape: an array's element or a log's counter is none", () => {
    expect(locationsIn('items[3]: undefined')).toEqual([]);
    expect(locationsIn('worker[1234]: started')).toEqual([]);
  });
});

describe('a file, then `on line N`', () => {
  it("reads rsnapshot's `ERROR: rsnapshot/rsnapshot.conf on line 96:`", () => {
    expect(locationsIn('ERROR: rsnapshot/rsnapshot.conf on line 96:')).toEqual([{ path: 'rsnapshot/rsnapshot.conf', line: 96 }]);
  });
});

describe("a failure's banner", () => {
  it("announces the lines under it: Redis' place and reason join its `*** FATAL CONFIG FILE ERROR ***`", () => {
    const c = 'redis-server-invalid-loglevel-redis-conf';
    const ls = lines(c);
    const i = ls.findIndex((l) => l.text.includes('FATAL CONFIG FILE ERROR'));
    const end = blockEnd(ls, i);
    expect(ls[end]!.text).toContain('argument(s) must be one of');
    expect(signalsOf(c, 'FATAL CONFIG FILE ERROR', 'argument(s) must be one of')).toContain('redis/redis.conf:349');
    expect(category(ls.slice(i, end + 1).map((l) => l.text).join('\n'))).toBe('compile');
  });
});

describe("TeX's context line", () => {
  it('places `l.174` in the file of the `(./sample2e.tex` trail', () => {
    const c = 'pdflatex-mismatched-end-enumerate-sample2e';
    expect(signalsOf(c, '! LaTeX Error:', 'l.174')).toEqual(expect.arrayContaining([expect.stringMatching(/sample2e\.tex:174$/)]));
    expect(category('! LaTeX Error: \\begin{enumerate} on input line 167 ended by \\end{itemize}.')).toBe('compile');
    expect(category('! Undefined control sequence.')).toBe('compile');
  });
});

describe('a parser that says what punctuation it was expecting', () => {
  it("starts a block at BibTeX's report and reads it as compile", () => {
    const text = "I was expecting a `,' or a `}'---line 26 of file xampl.bib";
    expect(errorScore(text)).toBeGreaterThanOrEqual(0.5);
    expect(locationsIn(text)).toEqual([{ path: 'xampl.bib', line: 26 }]);
    expect(category(text)).toBe('compile');
    expect(category("bird: bird/bird.conf:40:1 syntax error, unexpected PROTOCOL, expecting ';'")).toBe('compile');
  });

  it("takes BibTeX's own word that the fault may be on the line before the one it reports", () => {
    const c = 'bibtex-missing-comma-article-full-xampl';
    expect(signalsOf(c, 'I was expecting', '(Error may have been on previous line)')).toEqual(['xampl.bib:25']);
    expect(signalsOf(c, 'I was expecting', 'I was expecting')).toEqual(['xampl.bib:26']);
  });

  it("leaves a test's expectation of a value alone", () => {
    expect(errorScore('expecting 3 calls to the mock')).toBeLessThan(0.5);
  });
});

describe('categories of configuration and document checks', () => {
  it('reads a YAML parser in words, a named directive and errors found in a .conf file as compile', () => {
    expect(category('YAML parse exception at line 1, column 22:\nmapping values are not allowed in this context')).toBe('compile');
    expect(category("Fatal error: Directive 'buffer-limit' used with non-numerical value: '4M'")).toBe('compile');
    expect(category('ERROR: Errors were found in rsnapshot/rsnapshot.conf,')).toBe('compile');
  });

  it("does not take a command's option for what the step does: `--config-test` runs no tests", () => {
    expect(category('nothing named here', 'privoxy --config-test privoxy/config')).not.toBe('test');
    expect(category('nothing named here', 'npm test')).toBe('test');
    expect(category('nothing named here', 'verilator --lint-only -Wall -f input.vc top.v')).toBe('lint');
  });
});
