import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/diagnose.js';
import { errorScore, isExternalFrame, isFrame } from '../../src/evidence/vocabulary.js';
import { titleMark, withoutWrapperFrames } from '../../src/evidence/select-blocks.js';
import { hasWildLog, wildLog, wildLineNo } from '../helpers/wild.js';

/**
 * Issue 14's third round on small projects' Actions jobs: one rule per test, each on the real log that
 * showed it (read from its fetched mirror; skipped where the mirror is not on the machine).
 */
const diagnosis = async (id: string) => diagnose({ log: wildLog(id) });
const evidenceOf = async (id: string) => (await diagnosis(id)).evidence.map((e) => e.line);
const onMirror = (id: string) => (hasWildLog(id) ? it : it.skip);
const textOf = (id: string) => new Map(readFileSync(wildLog(id), 'utf8').split('\n').map((t, i) => [i + 1, t] as const));

describe("the third small-jobs round's rules", () => {
  const swift = 'gha-small-swift-wasm-trap';
  onMirror(swift)("the runner's echo of a long run: script (its `echo \"ERROR: …\"` and `exit 1` lines) is never evidence", async () => {
    const lines = await evidenceOf(swift);
    const start = wildLineNo(swift, /Z ##\[group\]Run SDK_FLAG=/);
    const end = wildLineNo(swift, /Z ##\[endgroup\]$/, start);
    expect(end - start).toBeGreaterThan(100);
    expect(lines.filter((n) => n >= start && n <= end)).toEqual([]);
    expect(lines).toContain(wildLineNo(swift, /Z Error: failed to run main module/));
  });

  onMirror(swift)("SwiftPM's `Build complete!` survived the compiler warnings printed before it", async () => {
    const lines = await evidenceOf(swift);
    expect(lines.filter((n) => n < wildLineNo(swift, /Z Build complete! \(/))).toEqual([]);
  });

  const tauri = 'gha-small-tauri-ld-cannot-find-lib';
  onMirror(tauri)("vite's `✓ built in` survived rolldown's warnings: the quote starts at the linker's error", async () => {
    const lines = await evidenceOf(tauri);
    expect(lines[0]).toBe(wildLineNo(tauri, /error.*: linking with `aarch64-linux-gnu-gcc` failed/));
    expect(lines).not.toContain(wildLineNo(tauri, /\[INVALID_ANNOTATION\]/));
  });

  const vstest = 'gha-small-vstest-dll-not-found';
  onMirror(vstest)("a reporter's annotation after a step exited non-zero is not the failing step: the step that exited is", async () => {
    const d = await diagnosis(vstest);
    expect(d.failingStep?.startLine).toBe(wildLineNo(vstest, /Z ##\[group\]Run vstest\.console\.exe/));
    expect(d.evidence.map((e) => e.line)).toEqual([wildLineNo(vstest, /The test source file .* was not found\./)]);
  });

  onMirror(swift)('a source file named after an error type is a file a build lists, not an error', () => {
    const text = textOf(swift);
    const compiling = text.get(wildLineNo(swift, /Z \[\d+\/\d+\] Compiling OpenAPIRuntime RuntimeError\.swift$/))!.replace(/^\S+Z /, '');
    expect(errorScore(compiling)).toBe(0);
    expect(errorScore('RuntimeError: dictionary changed size during iteration')).toBeGreaterThan(0.6);
    expect(errorScore('Caused by: java.net.ConnectException: Connection refused')).toBeGreaterThan(0.6);
  });

  onMirror(swift)("wasmtime's backtrace frames (`N: 0xADDR - module!symbol`) are plumbing: the trap is quoted by its first frames and its causes", async () => {
    const lines = await evidenceOf(swift);
    const text = textOf(swift);
    const frame = text.get(wildLineNo(swift, /Z\s+0: 0x[0-9a-f]+ - MistKitPackageTests\.xctest!dlmalloc/))!.replace(/^\S+Z /, '');
    expect(isFrame(frame)).toBe(true);
    expect(isExternalFrame(frame)).toBe(true);
    expect(lines.filter((n) => /Z\s+\d+: 0x[0-9a-f]+ - /.test(text.get(n) ?? ''))).toHaveLength(3);
    expect(lines).toContain(wildLineNo(swift, /Z\s+1: error while executing at wasm backtrace:$/));
    // The root (`3: wasm trap: out of bounds memory access`) comes 1,560 frames later, past where the block
    // stops growing: not reached yet (the label quotes it; R 0.67).
  });

  const fastlane = 'gha-small-fastlane-xcodebuild-failed';
  onMirror(fastlane)("xcodebuild's build action on a product (`RegisterExecutionPolicyException X.o`, `X.bundle`) is not an exception", async () => {
    const text = textOf(fastlane);
    const action = text.get(wildLineNo(fastlane, /RegisterExecutionPolicyException.* \S+\.o\S*$/))!.replace(/^\S+Z /, '').replace(/\x1b\[[0-9;]*m/g, '');
    expect(errorScore(action)).toBe(0);
    const lines = await evidenceOf(fastlane);
    expect(lines.filter((n) => /RegisterExecutionPolicyException/.test(text.get(n) ?? ''))).toEqual([]);
    expect(lines).toContain(wildLineNo(fastlane, /\*\* BUILD FAILED \*\*/));
  });

  const nhs = 'gha-small-pytest-no-tests-ran';
  onMirror(nhs)("pytest's `no tests ran` is the failure; its session header is not quoted", async () => {
    const lines = await evidenceOf(nhs);
    expect(lines).toContain(wildLineNo(nhs, /Z =+ no tests ran in /));
    expect(lines).not.toContain(wildLineNo(nhs, /Z platform linux -- Python/));
    expect(lines).not.toContain(wildLineNo(nhs, /Z rootdir: /));
  });

  const jest = 'gha-small-jest-firebase-emulator-fail';
  onMirror(jest)("jest's first failure quoted whole: its later `●` failures are left out", async () => {
    const lines = await evidenceOf(jest);
    const text = textOf(jest);
    const titles = lines.filter((n) => /Z\s+● /.test(text.get(n) ?? ''));
    expect(titles).toEqual([wildLineNo(jest, /Z\s+● Angels Jobs API › POST \/api\/angels\/jobs › should create a new angel job posting/)]);
  });

  it("jest's and vitest's failure titles have a mark (one for `●` and `FAIL`: round 4); mocha's numbered list and pytest's sections do not", () => {
    expect(titleMark('  ● Suite › test one')).toBe('jest-or-vitest');
    expect(titleMark(' FAIL  src/a.test.ts > Suite > test')).toBe('jest-or-vitest');
    expect(titleMark('  12) Foo::bar')).toBeUndefined();
    expect(titleMark('_______ test_x _______')).toBeUndefined();
    expect(titleMark('all good')).toBeUndefined();
  });

  const spring = 'gha-small-maven-spring-context-db-refused';
  onMirror(spring)('a chain of causes keeps every `Caused by:` line and the root cause\'s frames, not the wrappers\' frames', async () => {
    const lines = await evidenceOf(spring);
    // The test's own trace, under surefire's `<<< ERROR!` (the context's log printed the same chain earlier).
    const test = wildLineNo(spring, /Z \[ERROR\] com\.manga\.library\.JwtTest\.testPostChapter .*<<< ERROR!/);
    const bean = wildLineNo(spring, /Z Caused by: org\.springframework\.beans\.factory\.BeanCreationException/, test);
    const root = wildLineNo(spring, /Z Caused by: java\.net\.ConnectException: Connection refused/, test);
    expect(lines).toContain(bean);
    expect(lines).toContain(root);
    // The wrappers' frames (Spring's, Hibernate's, the driver's) between the first cause and the root are left out.
    const text = textOf(spring);
    expect(lines.filter((n) => n > bean && n < root && /Z \tat /.test(text.get(n) ?? ''))).toEqual([]);
    expect(lines).toContain(root + 1);
  });

  it('withoutWrapperFrames leaves a trace with one cause as it is', () => {
    const text = new Map([
      [1, 'java.lang.IllegalStateException: x'],
      [2, '\tat a.B.c(B.java:1)'],
      [3, 'Caused by: java.io.IOException: y'],
      [4, '\tat d.E.f(E.java:2)'],
    ] as const);
    expect(withoutWrapperFrames([1, 2, 3, 4], text)).toEqual([1, 2, 3, 4]);
    const two = new Map([...text, [5, 'Caused by: java.net.ConnectException: z'] as const, [6, '\tat g.H.i(H.java:3)'] as const]);
    expect(withoutWrapperFrames([1, 2, 3, 4, 5, 6], two)).toEqual([1, 2, 3, 5, 6]);
  });
});
