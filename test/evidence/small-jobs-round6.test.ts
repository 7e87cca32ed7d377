import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { diagnose } from '../../src/diagnose.js';
import { repairCp437 } from '../../src/log/mojibake.js';
import { cleanLine } from '../../src/log/clean.js';
import { hasWildLog, wildLog, wildLineNo } from '../helpers/wild.js';

/**
 * Issue 14's sixth round on small projects' Actions jobs (session 29, p21act): one rule per test, each on the
 * real log that showed it (read from its fetched mirror; skipped where the mirror is not on the machine).
 */
const diagnosis = async (id: string) => diagnose({ log: wildLog(id) });
const onMirror = (id: string) => (hasWildLog(id) ? it : it.skip);
/** A UTF-16LE file's lines as a person reads them (line numbers are the file's: a newline is one either way). */
const utf16Lines = (id: string) => new TextDecoder('utf-16le').decode(readFileSync(wildLog(id))).split('\n');
/** The 1-based number of the first line that matches `re` once cleaned as Redline reads it (no ANSI, no prefix). */
const lineOf = (lines: string[], id: string, re: RegExp) => {
  const i = lines.findIndex((l) => re.test(cleanLine(l)));
  if (i < 0) throw new Error(`${re} not in ${id}`);
  return i + 1;
};
const utf16LineNo = (id: string, re: RegExp) => lineOf(utf16Lines(id), id, re);
const lineNo = (id: string, re: RegExp) => lineOf(readFileSync(wildLog(id), 'utf8').split('\n'), id, re);

describe("the sixth small-jobs round's rules", () => {
  const setUp = 'gha-small-setup-action-unresolved-gh-run-view';
  onMirror(setUp)("in `gh run view` text of several jobs, a job whose set-up the runner refused is read before a later job's non-zero exit", async () => {
    const refused = wildLineNo(setUp, /##\[error\]Unable to resolve action `docker\/build-push-action@/);
    const laterExit = wildLineNo(setUp, /##\[error\]Process completed with exit code 1\./);
    expect(laterExit).toBeGreaterThan(refused);
    const d = await diagnosis(setUp);
    expect(d.failingStep?.name).toBe('Set up job');
    expect(d.failingStep?.startLine).toBe(1);
    expect(d.failingStep!.endLine).toBeLessThan(laterExit);
    expect(d.evidence.map((e) => e.line)).toContain(refused);
  });

  const nextest = 'gha-small-cargo-nextest-panic-tail';
  onMirror(nextest)("cargo-nextest's `Summary … tests run: … passed, 1 failed` tally above its FAIL entry does not open the evidence", async () => {
    const tally = lineNo(nextest, /Summary \[.*5457 tests run: 5456 passed/);
    const fail = lineNo(nextest, /FAIL.*\(3847\/5457\)/);
    const ev = (await diagnosis(nextest)).evidence.map((e) => e.line);
    expect(ev).not.toContain(tally);
    expect(ev[0]).toBe(fail);
  });

  const vitestTally = 'gha-small-vitest-shard-tail-excerpt';
  onMirror(vitestTally)("vitest's `Test Files` / `Tests` / `Start at` / `Duration` rows printed above a FAIL entry do not open its block", async () => {
    const testFiles = lineNo(vitestTally, /Test Files .*1 failed.*3 passed/);
    const fail = lineNo(vitestTally, / FAIL .*test\/github-cli\/github-cli\.test\.ts/);
    const ev = (await diagnosis(vitestTally)).evidence.map((e) => e.line);
    expect(ev.filter((n) => n >= testFiles && n < fail)).toEqual([]);
    expect(ev[0]).toBe(fail);
  });

  const goTidy = 'gha-small-go-mod-tidy-no-matching-versions';
  onMirror(goTidy)("Go's `go: finding module for package …` progress above its error does not open the evidence", async () => {
    const finding = wildLineNo(goTidy, /go: finding module for package/);
    const ev = (await diagnosis(goTidy)).evidence.map((e) => e.line);
    expect(ev).not.toContain(finding);
    expect(ev[0]).toBe(finding + 1);
  });

  const consoleOut = 'gha-small-vitest-console-error-utf16';
  onMirror(consoleOut)("what a test wrote under vitest's `stderr | file > test` header is its console output, not the run's failures", async () => {
    const header = utf16LineNo(consoleOut, /^stderr \| tests\/integration\/share\.redirect\.test\.tsx > /);
    const firstFail = utf16LineNo(consoleOut, /FAIL .*sales\.imageFields\.persist\.test\.ts/);
    const ev = (await diagnosis(consoleOut)).evidence.map((e) => e.line);
    expect(ev.filter((n) => n > header && n < firstFail - 5)).toEqual([]);
  });

  const garbled = 'gha-small-playwright-16-failed-utf16';
  onMirror(garbled)("a line PowerShell's redirect garbled through cp437 is read as the tool printed it: Playwright's numbered failure header opens the evidence", async () => {
    const lines = utf16Lines(garbled);
    const header = lines.findIndex((l) => /Z {3}1\) \[chromium\] ΓÇ║ tests\/e2e\/checkout\.spec\.ts:9:7 ΓÇ║/.test(l)) + 1;
    expect(header).toBeGreaterThan(0);
    expect(cleanLine(lines[header - 1]!)).toMatch(/^ {2}1\) \[chromium\] › tests\/e2e\/checkout\.spec\.ts:9:7 › Checkout Flow › /);
    const ev = (await diagnosis(garbled)).evidence.map((e) => e.line);
    expect(ev[0]).toBe(header);
  });

  it('cp437 repair leaves text in cp437 letters, real UTF-8 and ASCII alone', () => {
    expect(repairCp437('Γ£ô tests/a.test.ts (3 tests)')).toBe('✓ tests/a.test.ts (3 tests)');
    expect(repairCp437('∩╗┐2026-01-01T00:00:00Z x')).toBe('\uFEFF2026-01-01T00:00:00Z x');
    for (const s of ['café résumé', '──── rule ────', '✓ passed', 'plain ASCII', 'Γ alone']) expect(repairCp437(s)).toBe(s);
  });
});
