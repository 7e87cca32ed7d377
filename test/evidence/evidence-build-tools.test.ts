import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/diagnose.js';
import { wildLineNo, wildLog } from '../helpers/wild.js';

/**
 * Whole blocks of JVM build tools, HotSpot, Maven's project model, rustc, ExUnit and busted as a person
 * pastes them, on real logs of the development corpus (fixtures/wild/: label.json names each source).
 */
const wild = wildLog;
const lineNo = wildLineNo;
const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => a + i);
const evidenceOf = async (id: string) => (await diagnose({ log: wild(id) })).evidence.map((e) => e.line);

describe("Ant's BUILD FAILED heads its report", () => {
  it('quotes the verdict with the message under it (idea-gitignore, Travis)', async () => {
    const id = 'travis-bugswarm-idea-gitignore-ant-no-target';
    const at = lineNo(id, /^BUILD FAILED$/);
    expect(await evidenceOf(id)).toEqual([at, at + 1]);
  });

  it('quotes the task error above it and the report, not the Java stack trace under it (LogisticsPipes, Travis)', async () => {
    const id = 'travis-bugswarm-logisticspipes-356.3';
    const task = lineNo(id, /\[get\] Error getting/);
    const at = lineNo(id, /^BUILD FAILED$/);
    expect(await evidenceOf(id)).toEqual([task, at, at + 1]);
  });
});

describe("HotSpot's banner", () => {
  it('is quoted from the VM warning to the allocation line, once though the command was retried (sagan, Travis)', async () => {
    const id = 'travis-bugswarm-sagan-gradlew-jvm-memory-retried';
    const warn = lineNo(id, /VM warning: INFO: os::commit_memory/);
    const d = await diagnose({ log: wild(id) });
    expect(d.evidence.map((e) => e.line)).toEqual(range(warn, warn + 3));
    expect(d.category).toBe('infra');
  });
});

describe("Maven's project-model report", () => {
  it('is quoted from `The build could not read 2 projects` through each project and its errors (bugsnag-android, Travis)', async () => {
    const id = 'travis-bugswarm-bugsnag-android-2.1';
    const head = lineNo(id, /The build could not read 2 projects/);
    const last = lineNo(id, /Unknown packaging: apk/);
    // Maven's blank lines (`[ERROR]   ` alone) are not quoted.
    expect(await evidenceOf(id)).toEqual([head, head + 2, head + 3, ...range(head + 5, last)]);
  });
});

describe("rustc's diagnostic", () => {
  it('ends before its `help:` suggestion; cargo\'s `could not compile` count is quoted beside it (plain cargo build)', async () => {
    const id = 'rec-cargo-build-borrow';
    const head = lineNo(id, /^error\[E0382\]/);
    const note = lineNo(id, /= note: borrow occurs/);
    const count = lineNo(id, /^error: could not compile/);
    expect(await evidenceOf(id)).toEqual([...range(head, note), count]);
  });
});

describe("a runner's sentence of counts is quoted beside the failures", () => {
  it("ExUnit's `1 doctest, 1 test, 2 failures` (mix test, buildbot)", async () => {
    const id = 'buildbot-mix-test-greeter';
    expect(await evidenceOf(id)).toContain(lineNo(id, /^1 doctest, 1 test, 2 failures$/));
  });

  it("busted's `0 successes / 2 failures / 0 errors / 0 pending` (Penlight, Actions)", async () => {
    const id = 'rec-gha-busted-penlight-strip';
    expect((await evidenceOf(id))[0]).toBe(lineNo(id, /\b0 successes \/ 2 failures/));
  });
});
