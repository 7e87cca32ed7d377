import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describeSymbol, enclosingDefinition, fileTags, tagsForFiles, type Definition, type FileTags } from '../../../src/repo/map/index.js';
import { SAMPLES } from './samples.js';

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

/** A checkout in a temp dir with the given files (text or bytes). */
function makeRepo(files: Record<string, string | Uint8Array>): string {
  const root = mkdtempSync(join(tmpdir(), 'redline-tags-'));
  roots.push(root);
  for (const [f, body] of Object.entries(files)) {
    mkdirSync(dirname(join(root, f)), { recursive: true });
    writeFileSync(join(root, f), body);
  }
  return root;
}

const show = (d: Definition) => `${d.line}-${d.endLine} ${d.kind} ${describeSymbol(d)}`;
const sig = (t: FileTags, name: string, line?: number) => t.defs.find((d) => d.name === name && (line === undefined || d.line === line))?.signature;
const refsAt = (t: FileTags, line: number) => t.refs.filter((r) => r.line === line).map((r) => r.name);

// One repo with every sample, tagged once without a disk cache (cache behaviour has its own tests).
const repo = makeRepo(Object.fromEntries(Object.values(SAMPLES).map((s) => [s.file, s.text])));
const all = tagsForFiles({ root: repo }, Object.values(SAMPLES).map((s) => s.file), { cacheDir: false });
const tagsOf = async (lang: string) => (await all).get(SAMPLES[lang]!.file)!;

describe('definitions per language: kind, lines, container (sorted by line)', () => {
  const expected: Record<string, string[]> = {
  'typescript': [
    '4-4 constant MAX_DEPTH',
    '5-5 variable counter',
    '7-10 interface Header',
    '8-8 field Header.name',
    '9-9 field Header.size',
    '12-12 type Mode',
    '14-17 enum Color',
    '19-32 class Parser',
    '20-20 field Parser.depth',
    '22-24 method Parser.constructor()',
    '26-29 method Parser.parseHeader()',
    '31-31 method Parser.create()',
    '34-36 function splitLine()',
    '38-40 function parseDate()',
    '42-44 module Util',
    '43-43 function Util.helper()',
    '46-48 class Shape',
    '47-47 method Shape.area()',
  ],
  'tsx': [
    '3-5 interface Props',
    '4-4 field Props.title',
    '7-9 function Header()',
    '11-17 function App()',
    '19-21 function formatTitle()',
  ],
  'javascript': [
    '3-5 function Button()',
    '7-17 class Counter',
    '8-8 field Counter.state',
    '10-12 method Counter.increment()',
    '14-16 method Counter.render()',
    '19-19 function double()',
    '20-20 constant LIMIT',
  ],
  'python': [
    '4-4 constant MAX_SIZE',
    '7-19 class Parser',
    '10-10 field Parser.limit',
    '12-13 method Parser.__init__()',
    '16-19 method Parser.parse_header()',
    '22-23 function split_line()',
    '26-27 function fetch()',
  ],
  'go': [
    '8-8 constant MaxDepth',
    '10-10 variable counter',
    '12-15 struct Header',
    '13-13 field Header.Name',
    '14-14 field Header.Size',
    '17-19 interface Reader',
    '18-18 method Reader.Read()',
    '21-21 type Mode',
    '23-26 method Parser.ParseHeader()',
    '28-30 function splitLine()',
    '32-34 function main()',
  ],
  'rust': [
    '3-3 constant MAX_DEPTH',
    '4-4 constant COUNTER',
    '6-8 struct Parser',
    '7-7 field Parser.depth',
    '10-13 enum Token',
    '15-17 trait Reader',
    '16-16 method Reader.read()',
    '19-19 type Map',
    '22-24 method Parser.new()',
    '26-28 method Parser.parse_header()',
    '32-34 method Parser.read()',
    '37-39 function split_line()',
    '41-43 module util',
    '42-42 function util.helper()',
    '45-47 function square()',
  ],
  'java': [
    '5-25 class Parser',
    '6-6 constant Parser.MAX_DEPTH',
    '7-7 field Parser.depth',
    '9-11 method Parser.Parser()',
    '13-18 method Parser.parseHeader()',
    '20-22 interface Parser.Visitor',
    '21-21 method Visitor.visit()',
    '24-24 enum Parser.Mode',
    '27-27 class Point',
  ],
  'c-sharp': [
    '4-37 module Example.Parsing',
    '6-9 interface Example.Parsing.IReader',
    '8-8 method IReader.Read()',
    '11-30 class Example.Parsing.Parser',
    '13-13 constant Parser.MaxDepth',
    '14-14 field Parser.depth',
    '16-16 field Parser.Depth',
    '18-21 method Parser.Parser()',
    '23-27 method Parser.ParseHeader()',
    '29-29 method Parser.Read()',
    '32-32 struct Example.Parsing.Point',
    '32-32 field Point.X',
    '34-34 enum Example.Parsing.Mode',
    '36-36 class Example.Parsing.Person',
  ],
  'c': [
    '4-4 constant MAX_DEPTH',
    '6-9 struct header',
    '7-7 field header.name',
    '8-8 field header.size',
    '11-11 type header_t',
    '13-13 enum mode',
    '15-15 variable counter',
    '17-17 function split_line()',
    '19-26 function parse_header()',
    '28-31 function main()',
  ],
  'cpp': [
    '4-30 module parsing',
    '6-13 class parsing.Parser',
    '8-8 method Parser.Parser()',
    '9-9 method Parser.parseHeader()',
    '10-10 method Parser.depth()',
    '12-12 field Parser.depth_',
    '15-15 method Parser.Parser()',
    '17-19 method Parser.parseHeader()',
    '22-24 function parsing.maxOf()',
    '26-26 struct parsing.Point',
    '26-26 field Point.x',
    '26-26 field Point.y',
    '28-28 enum parsing.Mode',
  ],
  'ruby': [
    '3-26 module Parsing',
    '4-4 constant Parsing.MAX_DEPTH',
    '6-21 class Parsing.Parser',
    '9-11 method Parser.initialize()',
    '13-16 method Parser.parse_header()',
    '18-20 method Parser.create()',
    '23-25 function Parsing.helper()',
    '28-30 function split_line()',
  ],
  'php': [
    '3-3 module App\\Parsing',
    '7-7 constant MAX_DEPTH',
    '9-12 interface Reader',
    '11-11 method Reader.read()',
    '14-17 trait Loggable',
    '16-16 method Loggable.log()',
    '19-34 class Parser',
    '21-21 field Parser.depth',
    '22-22 constant Parser.LIMIT',
    '24-28 method Parser.parseHeader()',
    '30-33 method Parser.read()',
    '36-39 function splitLine()',
    '41-41 enum Mode',
  ],
  'bash': [
    '4-4 variable VERSION',
    '6-8 function log()',
    '10-13 function build_all()',
  ],
  };
  it.each(Object.keys(expected))('%s', async (lang) => {
    const t = await tagsOf(lang);
    expect(t.parsed).toBe(true);
    expect(t.lang).toBe(lang === 'c' ? 'cpp' : lang);
    expect(t.defs.map(show)).toEqual(expected[lang]);
  });
});

describe('signatures: the header as written, one line, body cut', () => {
  it.each([
    ['typescript', 'splitLine', undefined, 'export function splitLine(line: string): string[]'],
    ['typescript', 'parseDate', undefined, 'export const parseDate = async (s: string): Promise<Date>'],
    ['typescript', 'Parser', undefined, 'export class Parser extends Base implements Reader'],
    ['typescript', 'MAX_DEPTH', undefined, 'export const MAX_DEPTH = 3'],
    ['tsx', 'App', undefined, 'export const App = ()'],
    ['javascript', 'Button', undefined, 'export function Button({ label, onClick })'],
    ['python', 'parse_header', undefined, 'def parse_header(line: str, strict: bool = False) -> dict'],
    ['python', 'fetch', undefined, 'async def fetch(url)'],
    ['go', 'ParseHeader', undefined, 'func (p *Parser) ParseHeader(line string) (Header, error)'],
    ['go', 'Header', undefined, 'type Header struct'],
    ['rust', 'parse_header', undefined, 'pub fn parse_header(&self, line: &str) -> Vec<String>'],
    ['rust', 'read', 16, 'fn read(&self) -> String'],
    ['java', 'parseHeader', undefined, 'public Header parseHeader(String line) throws ParseException'],
    ['c-sharp', 'Read', 29, 'public string Read()'],
    ['c', 'parse_header', undefined, 'int parse_header(const char *line, struct header *out)'],
    ['cpp', 'parseHeader', 17, 'std::vector<std::string> Parser::parseHeader(const std::string& line)'],
    ['ruby', 'create', undefined, 'def self.create'],
    ['php', 'parseHeader', undefined, 'public function parseHeader(string $line): Header'],
    ['bash', 'build_all', undefined, 'function build_all'],
  ] as const)('%s %s', async (lang, name, line, want) => {
    const s = sig(await tagsOf(lang), name, line);
    expect(s).toBe(want);
    expect(s!.length).toBeLessThanOrEqual(200);
  });
});

describe('references: calls, names used, types, imports', () => {
  it.each([
    ['typescript', 27, ['parts', 'splitLine', 'text']],
    ['typescript', 1, ['readFileSync']],
    ['typescript', 26, ['Header', 'text']],
    ['tsx', 8, ['formatTitle', 'h1', 'title']],
    ['tsx', 14, ['Header']],
    ['javascript', 15, ['Button', 'increment']],
    ['python', 18, ['line', 'parts', 'split_line']],
    ['go', 33, ['Println', 'fmt', 'splitLine']],
    ['rust', 27, ['line', 'split_line']],
    ['java', 16, ['List', 'String', 'line', 'parts', 'splitLine']],
    ['c-sharp', 25, ['SplitLine', 'line', 'parts']],
    ['c', 23, ['line', 'n', 'parts', 'split_line']],
    ['cpp', 18, ['line', 'splitLine']],
    ['ruby', 14, ['line', 'parts', 'split_line']],
    ['php', 26, ['line', 'parts', 'splitLine']],
    ['bash', 11, ['VERSION', 'log']],
  ] as const)('%s line %i', async (lang, line, names) => {
    expect(refsAt(await tagsOf(lang), line)).toEqual(expect.arrayContaining([...names]));
  });

  it('does not count a definition\'s own name as a use of it', async () => {
    const t = await tagsOf('typescript');
    expect(refsAt(t, 34)).not.toContain('splitLine');
    expect(refsAt(t, 35)).toEqual(['line', 'split']);
  });

  it('keeps one reference per name and line, sorted by line', async () => {
    for (const t of (await all).values()) {
      const keys = t.refs.map((r) => `${r.line}:${r.name}`);
      expect(new Set(keys).size).toBe(keys.length);
      expect(t.refs.map((r) => r.line)).toEqual([...t.refs.map((r) => r.line)].sort((a, b) => a - b));
    }
  });
});

describe('enclosingDefinition / describeSymbol', () => {
  it.each([
    ['typescript', 28, 'Parser.parseHeader()'],
    ['typescript', 39, 'parseDate()'],
    ['typescript', 20, 'Parser.depth'],
    ['typescript', 43, 'Util.helper()'],
    ['python', 18, 'Parser.parse_header()'],
    ['python', 8, 'Parser'],
    ['go', 25, 'Parser.ParseHeader()'],
    ['rust', 27, 'Parser.parse_header()'],
    ['rust', 33, 'Parser.read()'],
    ['java', 17, 'Parser.parseHeader()'],
    ['c-sharp', 25, 'Parser.ParseHeader()'],
    ['c', 24, 'parse_header()'],
    ['cpp', 18, 'Parser.parseHeader()'],
    ['ruby', 14, 'Parser.parse_header()'],
    ['php', 27, 'Parser.parseHeader()'],
    ['bash', 12, 'build_all()'],
  ] as const)('%s line %i is in %s', async (lang, line, want) => {
    const d = enclosingDefinition(await tagsOf(lang), line);
    expect(d && describeSymbol(d)).toBe(want);
  });

  it('is undefined outside every definition, and picks the innermost of nested ones', async () => {
    const t = await tagsOf('typescript');
    expect(enclosingDefinition(t, 2)).toBeUndefined();
    expect(enclosingDefinition(t, 1000)).toBeUndefined();
    expect(enclosingDefinition({ defs: [] }, 1)).toBeUndefined();
    const nested: Definition[] = [
      { name: 'A', kind: 'class', line: 1, endLine: 20, signature: 'class A' },
      { name: 'f', kind: 'method', line: 3, endLine: 9, signature: 'f()', container: 'A' },
      { name: 'g', kind: 'function', line: 5, endLine: 7, signature: 'function g()', container: 'A.f' },
    ];
    expect(describeSymbol(enclosingDefinition({ defs: nested }, 6)!)).toBe('A.f.g()');
    expect(describeSymbol(enclosingDefinition({ defs: nested }, 4)!)).toBe('A.f()');
    expect(describeSymbol(enclosingDefinition({ defs: nested }, 15)!)).toBe('A');
  });

  it('names a helper nested in a method by its full path', async () => {
    const root = makeRepo({
      'src/a.ts': 'export class Parser {\n  parse(s: string) {\n    function step(x: number) {\n      return x + 1;\n    }\n    return step(1);\n  }\n}\n',
    });
    const t = await fileTags({ root }, 'src/a.ts', { cacheDir: false });
    expect(describeSymbol(enclosingDefinition(t, 4)!)).toBe('Parser.parse.step()');
    expect(enclosingDefinition(t, 4)!.kind).toBe('function');
  });
});
