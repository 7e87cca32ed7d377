import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { diagnose } from '../../src/diagnose.js';
import { cleanLine, cleanText } from '../../src/log/clean.js';
import { findGenericBlocks } from '../../src/evidence/index.js';
import { withoutPlumbing } from '../../src/evidence/select-blocks.js';
import { headerAbove } from '../../src/evidence/grow-block.js';
import { errorScore, isConsequence, isSummaryHeader } from '../../src/evidence/vocabulary.js';

/**
 * General rules of what a person quotes from a CI log, each on real lines of the development corpus
 * (fixtures/wild/: real CI logs of public projects, and real toolchains run here).
 */
const wild = (id: string) => new URL(`../../fixtures/wild/${id}/log.txt`, import.meta.url).pathname;
const linesOf = (id: string) => cleanText(readFileSync(wild(id), 'utf8'));
/** The cleaned text of the first line of a wild log matching `re`, and its number. */
const find = (id: string, re: RegExp) => {
  const l = linesOf(id).find((x) => re.test(x.text));
  if (!l) throw new Error(`${re} not in ${id}`);
  return l;
};

describe('a trace is quoted down to the project’s own frames, not through the plumbing', () => {
  it('cuts a JUnit trace past the test’s own frame (Maven, real log)', () => {
    const id = 'gha-maven-2397394521';
    const lines = linesOf(id);
    const text = new Map(lines.map((l) => [l.n, l.text] as const));
    const head = find(id, /^java\.lang\.IllegalStateException: org\.slf4j\.LoggerFactory in failed state/).n;
    const nums = Array.from({ length: 27 }, (_, i) => head + i);
    const kept = withoutPlumbing(nums, text).map((n) => text.get(n)!);
    expect(kept[0]).toMatch(/^java\.lang\.IllegalStateException/);
    expect(kept.some((t) => /MultithreadedInitializationTest\.multiThreadedInitialization\(/.test(t))).toBe(true);
    expect(kept.some((t) => /NativeMethodAccessorImpl|org\.junit\.runners/.test(t))).toBe(false);
  });

  it('keeps the framework frames between the exception and the first own frame, per trace (Gradle, real log)', () => {
    const id = 'travis-bugswarm-stagemonitor-581212464';
    const lines = linesOf(id);
    const text = new Map(lines.map((l) => [l.n, l.text] as const));
    const second = find(id, /org\.junit\.ComparisonFailure: expected:<null> but was:<NoopSpan>/).n;
    const kept = withoutPlumbing([second, second + 1, second + 2, second + 3, second + 4], text).map((n) => text.get(n)!.trim());
    // sun.reflect frames above the test's tearDown are where it broke; nothing below the own frame here.
    expect(kept).toHaveLength(5);
  });

  it('keeps the first three frames of a trace with no own frame; Ant’s frames are the build tool’s (Travis, real log)', () => {
    const id = 'travis-bugswarm-logisticspipes-356.3';
    const lines = linesOf(id);
    const text = new Map(lines.map((l) => [l.n, l.text] as const));
    const head = find(id, /build\.xml:66: java\.net\.UnknownHostException/).n;
    const nums = Array.from({ length: 17 }, (_, i) => head + i).filter((n) => text.has(n));
    const kept = withoutPlumbing(nums, text);
    expect(kept[0]).toBe(head);
    expect(kept.filter((n) => /^\s+at /.test(text.get(n)!))).toHaveLength(3);
  });

  it('quotes a Python traceback whole (unittest, real log)', () => {
    const id = 'gha-python-2422710472';
    const lines = linesOf(id);
    const text = new Map(lines.map((l) => [l.n, l.text] as const));
    const tb = find(id, /^Traceback \(most recent call last\):/).n;
    const nums = [tb, tb + 1, tb + 2, tb + 3, tb + 4, tb + 5];
    expect(withoutPlumbing(nums, text)).toEqual(nums);
  });

  it('diagnoses the Maven log with the trace cut to its own frames', async () => {
    const d = await diagnose({ log: wild('gha-maven-2397394521') });
    const quoted = d.evidence.map((e) => e.text);
    expect(quoted.some((t) => /MultithreadedInitializationTest\.multiThreadedInitialization/.test(t))).toBe(true);
    expect(quoted.some((t) => /jdk\.internal\.reflect/.test(t))).toBe(false);
  });
});

describe('tools’ closing restatements, advice and summaries', () => {
  it('reads the restatement of a failure already reported as a consequence (cargo, CTest, R, x.py, surefire, Maven)', () => {
    const lines = [
      find('rec-gha-cargo-test-scaffold', /^error: test failed, to rerun pass/),
      find('buildbot-ctest-zpipe', /^Errors while running CTest/),
      find('buildbot-testthat-digest', /^Execution halted/),
      find('buildbot-testthat-digest', /^Error: Test failures/),
      find('azure-rust-66716-cargo-patch', /^Build completed unsuccessfully/),
      find('gha-maven-16621473969', /Please refer to .* for the individual test results/),
      find('gha-maven-1749803252', /banned from the build due to previous failures/),
      find('buildbot-cargo-test-adder', /^note: run with `RUST_BACKTRACE=1`/),
    ];
    for (const l of lines) expect(isConsequence(l.text), l.text).toBe(true);
    // The failure itself is not one.
    expect(isConsequence(find('rec-gha-cargo-test-scaffold', /panicked at/).text)).toBe(false);
  });

  it('reads Maven’s leveled summary sections, Minitest’s and cargo’s failing counts as summaries', () => {
    expect(isSummaryHeader(find('gha-maven-7885474901', /^\[ERROR\] Errors:\s*$/).text)).toBe(true);
    expect(isSummaryHeader(find('rec-gha-minitest-assert-in-delta', /^\d+ runs, \d+ assertions, [1-9]\d* failures/).text)).toBe(true);
    expect(isSummaryHeader(find('rec-gha-cargo-test-scaffold', /^test result: FAILED\./).text)).toBe(true);
  });
});

describe('where a block starts', () => {
  it('a located diagnostic heads its own block: the caret above it is the warning’s (javac, real log)', async () => {
    const id = 'gha-gradle-7801445827';
    const lines = linesOf(id);
    const err = lines.findIndex((l) => /DungeonChallenge\.java:91: error: cannot find symbol/.test(l.text));
    expect(headerAbove(lines, err)).toBe(err);
    const d = await diagnose({ log: wild(id) });
    // The `warning: [removal]` above it is not quoted, though a pin names its file.
    expect(d.evidence[0]!.text).toMatch(/DungeonChallenge\.java:91: error: cannot find symbol/);
    expect(d.evidence.some((e) => /warning: \[removal\]/.test(e.text))).toBe(false);
  });

  it('the shell’s trace of a command is not part of the error under it (Jenkins, real log)', async () => {
    const id = 'jenkins-pipeline-az-login-post-actions';
    const lines = linesOf(id);
    const err = lines.findIndex((l) => /ERROR: No subscriptions found/.test(l.text));
    expect(lines[err - 1]!.text).toMatch(/^\+ az login/);
    expect(headerAbove(lines, err)).toBe(err);
    const d = await diagnose({ log: wild(id) });
    expect(d.evidence.map((e) => e.text)).toEqual([lines[err]!.text]);
  });

  it('the source line a compiler quotes under a warning starts no block, whatever its words (javac, real log)', () => {
    const id = 'gha-gradle-2371715232';
    const lines = linesOf(id);
    const code = find(id, /^\s+public File createTempFile\(\) throws IOException \{$/);
    expect(errorScore(code.text)).toBeGreaterThanOrEqual(0.5);
    const blocks = findGenericBlocks({ lines });
    expect(blocks.some((b) => b.start <= code.n && code.n <= b.end)).toBe(false);
  });
});

describe('routine lines that carry error words', () => {
  it('a line its logger tagged INFO or WARN is routine (Maven, Dubbo, real logs)', () => {
    expect(errorScore(find('gha-maven-1749803252', /^\[INFO\] Error size is 0/).text)).toBeLessThan(0.5);
    expect(errorScore(find('gha-maven-1749803252', /^\[WARNING\] javadoc: warning - Error fetching URL/).text)).toBeLessThan(0.5);
    expect(errorScore(find('gha-terminated-2026328035', / WARN transport\.AbstractClient: .*Failed to start NettyClient/).text)).toBeLessThan(0.5);
    // The error the build failed on keeps its weight.
    expect(errorScore(find('gha-maven-1749803252', /HasSuperTypeMatcher\.java:24:8: error: Unused import/).text)).toBeGreaterThanOrEqual(0.5);
  });

  it('a unittest test that passed is routine though its name says error (real log)', () => {
    expect(errorScore(find('gha-python-2496945256', /^test_Client_error_on_aggregate_with_snapshot .* \.\.\. ok$/).text)).toBeLessThan(0.5);
  });
});

describe('what else is left out', () => {
  it('with nothing recognised, the runner’s step preamble and exit line are not quoted (luac, real run)', async () => {
    const d = await diagnose({ log: wild('rec-gha-luac-penlight-list') });
    expect(d.evidence.map((e) => e.text)).toEqual(["luac: pl/List.lua:60: 'then' expected near 'for'"]);
  });

  it('generic blocks well below the recognised cause and printed before it are left out (a cancelled job, real log)', async () => {
    const id = 'gha-terminated-2026328035';
    const d = await diagnose({ log: wild(id) });
    const cancel = find(id, /^##\[error\]The operation was canceled\./).n;
    expect(d.evidence[d.evidence.length - 1]!.line).toBe(cancel);
    // The application's logged exceptions hours earlier in the step (lines 1709, 5498, 8938) are not quoted.
    expect(d.evidence.every((e) => e.line > 11000)).toBe(true);
  });

  it('cleans docker compose’s service prefix like a timestamp (real log)', () => {
    const raw = readFileSync(wild('gha-javascript-jest-2547772887'), 'utf8').split('\n');
    const i = raw.findIndex((l) => l.includes('test_1') && l.includes('FAIL ./test-global.test.js'));
    expect(cleanLine(raw[i]!)).toBe('FAIL ./test-global.test.js');
    expect(cleanLine(raw[i + 1]!)).toBe('  ● Test suite failed to run');
  });
});
