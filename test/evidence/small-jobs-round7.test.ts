import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/diagnose.js';
import { isLocatedWarning, withoutWarningsBesideError } from '../../src/evidence/warnings-beside-error.js';
import { firstLinesOfErrorList, LIST_LINES } from '../../src/evidence/diagnostic-list.js';
import type { Block } from '../../src/evidence/block.js';
import { hasWildLog, wildLineNo, wildLog } from '../helpers/wild.js';

/**
 * Issue 14's seventh round on small projects' Actions jobs (session 30, p22act): where precision is lost on the
 * `gha-small-*` logs. One rule per test, each on the real log that showed it (read from its fetched mirror;
 * skipped where the mirror is not on the machine), and a small case of the same shape for the module alone.
 */
const evidenceOf = async (id: string) => (await diagnose({ log: wildLog(id) })).evidence.map((e) => e.line);
const onMirror = (id: string) => (hasWildLog(id) ? it : it.skip);

describe('warnings printed beside the error (src/evidence/warnings-beside-error.ts)', () => {
  const dotnet = 'gha-small-dotnet-cs0246-ca-warnings';
  onMirror(dotnet)("MSBuild's located warnings above and below its one error are not the error's block (mahmoud-ai-desktop, CS0246 among 200 warnings)", async () => {
    const error = wildLineNo(dotnet, /##\[error\].*App\.xaml\.cs\(19,31\): error CS0246:/);
    const firstWarning = wildLineNo(dotnet, /Microsoft\.WinUI\.props\(23,3\): warning MSB4011:/);
    const lines = await evidenceOf(dotnet);
    // Before the rule the evidence was the ten MSB4011 warnings above the error, and the error itself was left out.
    expect(lines[0]).toBe(error);
    expect(lines).not.toContain(firstWarning);
    expect(lines.filter((n) => n > error && n < error + 200)).toEqual([]);
  });

  it("leaves a step that printed warnings and no located error as it was (golden cppcheck-uninitvar-encoded-length-cjson: the warning failed the step)", async () => {
    const d = await diagnose({ log: new URL('../../fixtures/logs/cppcheck-uninitvar-encoded-length-cjson/log.txt', import.meta.url).pathname });
    expect(d.evidence.map((e) => e.line)).toEqual([1, 2, 3]);
    expect(d.category).toBe('lint');
  });

  it('cuts leading warnings, ends a block at a run of warnings after its error, drops a block of warnings alone; keeps warnings when they are all there is', () => {
    const text = [
      'src/a.cs(1,1): warning CS8618: field is null',
      'src/a.cs(2,1): error CS0246: type not found',
      '##[warning]src/b.cs(3,1): warning CA1806: result unused',
      'src/c.cs(4,1): warning CS8602: maybe null',
    ];
    const lines = text.map((t, i) => ({ n: i + 1, text: t }));
    const block = (start: number, end: number): Block => ({ start, end, header: start, kind: 'diagnostic', score: 1, why: [], source: 'generic' });
    expect(isLocatedWarning(text[0]!)).toBe(true);
    expect(isLocatedWarning(text[1]!)).toBe(false);
    // A run of warnings after the error ends its block; a lone one inside it (gcc's, with its excerpt) does not.
    expect(withoutWarningsBesideError([block(1, 4)], lines).map((b) => [b.start, b.end])).toEqual([[2, 2]]);
    expect(withoutWarningsBesideError([block(1, 3), block(4, 4)], lines).map((b) => [b.start, b.end])).toEqual([[2, 3]]);
    expect(withoutWarningsBesideError([block(1, 1), block(4, 4)], lines).map((b) => [b.start, b.end])).toEqual([[1, 1], [4, 4]]);
  });
});

describe('a list of located errors (src/evidence/diagnostic-list.ts)', () => {
  const tsc = 'gha-small-tsc-build-pnpm-annotations';
  onMirror(tsc)(`tsc's annotations through pnpm are quoted by the list's first ${LIST_LINES} lines, as printed (tzurot-like monorepo, 40 lines before)`, async () => {
    const first = wildLineNo(tsc, /##\[error\]apps\/api\/src\/routes\/contracts\.ts\(483,15\): error TS2304/);
    const lines = await evidenceOf(tsc);
    expect(lines).toEqual(Array.from({ length: LIST_LINES }, (_, i) => first + i));
  });

  const kotlin = 'gha-small-gradle-kotlin-compose-unresolved';
  onMirror(kotlin)("kotlinc's `e:` lines run on through Gradle's `> Task … FAILED` line between them: one list, its first ten lines", async () => {
    const first = wildLineNo(kotlin, /^\S+ e: file:\/\/\/.*BottomNav/);
    const task = wildLineNo(kotlin, /> Task :app:compileDebugKotlin FAILED/);
    const lines = await evidenceOf(kotlin);
    expect(lines.slice(0, LIST_LINES)).toEqual(Array.from({ length: LIST_LINES }, (_, i) => first + i));
    expect(lines).toContain(task);
  });

  const pnpmEslint = 'gha-small-eslint-730-errors-pnpm';
  onMirror(pnpmEslint)("eslint's stylish rows behind setup-node's `##[error]`: the first file's path and error rows, not the third file's run (tzurot)", async () => {
    const path = wildLineNo(pnpmEslint, /Z \/home\/runner\/work\/tzurot\/tzurot\/packages\/common-types\/src\/config\/config\.ts$/);
    const count = wildLineNo(pnpmEslint, /✖ 736 problems \(730 errors, 6 warnings\)/);
    expect(await evidenceOf(pnpmEslint)).toEqual([path, path + 1, path + 2, count]);
  });

  const guild = 'gha-small-eslint-667-problems-mojibake';
  onMirror(guild)("a lone error row above a longer run of another file's rows is still where the stylish list starts (guild-planner)", async () => {
    const path = wildLineNo(guild, /Z \/home\/runner\/work\/guild-planner\/guild-planner\/src\/app\/\[group\]\/\[game\]\/settings\/page\.tsx$/);
    const error = wildLineNo(guild, /Z {3}42:5 {3}error {4}Error: Calling setState synchronously/);
    const lines = await evidenceOf(guild);
    expect(lines.slice(0, 2)).toEqual([path, error]);
    // the warning rows between the path and the error are not the list
    expect(lines).not.toContain(path + 1);
  });

  it('leaves one error with its notes whole, and keeps blocks that are not the list', () => {
    const t = (line: number, text: string, block: number) => ({ line, text, block });
    const b = (start: number, end: number): Block => ({ start, end, header: start, kind: 'diagnostic', score: 1, why: [], source: 'generic' });
    const notes = Array.from({ length: 14 }, (_, i) => t(i + 2, `src/x.h(${i + 1}): note: could be 'f${i}'`, 0));
    const one = { blocks: [b(1, 15)], lines: [t(1, 'src/x.h(155): error C2672: no matching overloaded function found', 0), ...notes] };
    const lines = one.lines.map((l) => ({ n: l.line, text: l.text }));
    expect(firstLinesOfErrorList(one, lines)).toBe(one);
  });
});
