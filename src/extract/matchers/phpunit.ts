import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

const MAX_LINE = 2000;
/** Lines of one failure block kept as related: a long array diff is cut, its head says enough. */
const MAX_BLOCK = 40;
// `There was 1 failure:`, `There were 2 errors:`; warnings, risky, skipped and incomplete tests do not fail a build.
const SECTION = /^There (?:was|were) \d+ (failure|error|warning|risky test|skipped test|incomplete test|deprecation|notice)s?:$/;
// `1) Acme\Tests\CartTest::testTotal`, `2) FooTest::testX with data set #1 ('a', 2)`, `3) FooTest::testX with data set "named"`.
const TEST = /^(\d+)\) ((?:[\w\\]+::)?\w+)(?: with data set .*)?$/;
// The filtered trace under a failure: `/abs/path/tests/FooTest.php:25`, innermost first.
const LOCATION = /^(\S.*\.(?:php|phpt|inc)):(\d+)$/;
const END = /^(?:FAILURES!|ERRORS!|WARNINGS!|OK, but |Tests: \d+)/;
const TEST_FILE = /(?:Test|TestCase)\.php$|(?:^|\/)tests?\//i;
const LIBRARY = /\/vendor\/|^\/usr\/share\/php\//;

interface Block { n: number; name: string; kind: string; lines: LogLine[] }

function flush(b: Block, out: Signal[]): void {
  const locs: { n: number; path: string; line: number }[] = [];
  const message: LogLine[] = [];
  for (const l of b.lines) {
    const m = LOCATION.exec(l.text);
    if (m) locs.push({ n: l.n, path: m[1]!, line: Number(m[2]) });
    else if (!locs.length && l.text.trim() !== '') message.push(l);
  }
  // A failed assertion's first location is the test's line; an error's is where it was raised, so the
  // test's own line is the first location in a test file.
  const at = locs.find((l) => TEST_FILE.test(l.path) && !LIBRARY.test(l.path)) ?? locs[0];
  const symbol = b.name.includes('::') ? b.name.slice(b.name.lastIndexOf('::') + 2) : b.name;
  const blockLines = [...message, ...b.lines.filter((l) => LOCATION.test(l.text))];
  const main: Signal = { kind: 'test', symbol, message: message[0]?.text.trim() ?? b.name, tool: 'phpunit', category: 'test',
    weight: 0.9, logLine: message[0]?.n ?? b.n, related: [b.n, ...blockLines.map((l) => l.n)].filter((n) => n !== (message[0]?.n ?? b.n)).slice(0, MAX_BLOCK) };
  if (at) Object.assign(main, { path: at.path, line: at.line });
  out.push(main);
  locs.forEach((l, depth) => {
    if (l === at) return;
    out.push({ kind: 'frame', path: l.path, line: l.line, message: `${b.name} at ${l.path}:${l.line}`, tool: 'phpunit',
      weight: LIBRARY.test(l.path) ? 0.05 : Math.max(0.3, 0.6 - depth * 0.05), logLine: l.n });
  });
}

/** Reads PHPUnit's `There were N failures:` sections: `1) Class::test`, the message and diff, the trace's `file.php:N` lines. */
export const phpunitMatcher: Matcher = {
  id: 'phpunit',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    let section: string | undefined;
    let block: Block | undefined;
    const close = () => {
      if (block && (block.kind === 'failure' || block.kind === 'error')) flush(block, out);
      block = undefined;
    };
    for (const l of lines) {
      const text = l.text;
      if (text.length > MAX_LINE) continue;
      const s = text.startsWith('There w') ? SECTION.exec(text) : null;
      if (s) {
        close();
        section = s[1];
        continue;
      }
      if (!section) continue;
      if (END.test(text)) {
        close();
        section = undefined;
        continue;
      }
      const t = TEST.exec(text);
      if (t) {
        close();
        block = { n: l.n, name: t[2]!, kind: section, lines: [] };
        continue;
      }
      // `--` separates the error section from the failure section.
      if (text === '--') close();
      else if (block && block.lines.length < MAX_BLOCK * 4) block.lines.push(l);
    }
    close();
    return out;
  },
};
