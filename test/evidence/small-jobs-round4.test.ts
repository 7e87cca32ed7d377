import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/diagnose.js';
import { cleanLine } from '../../src/log/clean.js';
import { errorScore, isConsequence, isStepMarker } from '../../src/evidence/vocabulary.js';
import { restatedAnnotations } from '../../src/evidence/restated-annotations.js';
import { readFileSync } from 'node:fs';
import { hasWildLog, wildLog, wildLineNo } from '../helpers/wild.js';

/**
 * Issue 14's fourth round on small projects' Actions jobs (session 27): one rule per test, each on the real
 * log that showed it (read from its fetched mirror; skipped where the mirror is not on the machine).
 */
const diagnosis = async (id: string) => diagnose({ log: wildLog(id) });
const evidenceOf = async (id: string) => (await diagnosis(id)).evidence.map((e) => e.line);
const onMirror = (id: string) => (hasWildLog(id) ? it : it.skip);
const lineOf = (id: string, re: RegExp, from = 0) => readFileSync(wildLog(id), 'utf8').split('\n')[wildLineNo(id, re, from) - 1]!;

describe("the fourth small-jobs round's rules", () => {
  const ghView = 'gha-small-unittest-psycopg2-refused-gh-run-view';
  onMirror(ghView)("`gh run view --log` output is read as the runner's lines: its `job\\tstep\\t` prefix and the BOM are cut", async () => {
    const first = lineOf(ghView, /##\[group\]Run python -m unittest/);
    expect(first.startsWith('test\tRun unit tests\t')).toBe(true);
    expect(cleanLine(first)).toBe('##[group]Run python -m unittest discover -s tests -p "test_*.py" -v');
    // A BOM the saving shell decoded in a legacy code page goes with the prefix.
    expect(cleanLine('Android smoke\tCheckout\t∩╗┐2025-12-12T07:39:11.8393079Z ##[group]Run actions/checkout@v4')).toBe('##[group]Run actions/checkout@v4');
    // A tool's own tab-separated output (no runner timestamp after the second tab) is left as it is.
    expect(cleanLine('name\tvalue\tcomment')).toBe('name\tvalue\tcomment');
    const d = await diagnosis(ghView);
    expect(d.failingStep?.startLine).toBe(wildLineNo(ghView, /##\[group\]Run python -m unittest/));
    const lines = d.evidence.map((e) => e.line);
    expect(lines[0]).toBe(wildLineNo(ghView, /ERROR: test_valid_signal_fires/));
    expect(lines).toContain(wildLineNo(ghView, /psycopg2\.OperationalError: connection to server/));
  });

  const dockerVite = 'gha-small-docker-vite-unresolved-import';
  onMirror(dockerVite)("BuildKit's restatements of a `RUN` that exited non-zero are not quoted beside what the command printed", async () => {
    const lines = await evidenceOf(dockerVite);
    for (const re of [/Z #18 ERROR: process "\/bin\/sh -c npx vite build/, /Z ERROR: failed to build: failed to solve: process/, /Z ##\[error\]buildx failed with: /]) {
      expect(isConsequence(lineOf(dockerVite, re).replace(/^\S+Z /, ''))).toBe(true);
      expect(lines).not.toContain(wildLineNo(dockerVite, re));
    }
    expect(lines).toContain(wildLineNo(dockerVite, /UNRESOLVED_IMPORT.*Could not resolve/));
    // BuildKit's own error, naming no process, is a report.
    expect(isConsequence('ERROR: failed to solve: node:22-alpine: failed to resolve source metadata for docker.io/library/node:22-alpine: not found')).toBe(false);
  });

  const tauri = 'gha-small-tauri-ld-cannot-find-lib';
  onMirror(tauri)("a build CLI's closing `failed to build app` (tauri-cli) is not quoted beside the linker's error", async () => {
    const lines = await evidenceOf(tauri);
    expect(lines).not.toContain(wildLineNo(tauri, /Z failed to build app: failed to build app$/));
    expect(lines).not.toContain(wildLineNo(tauri, /Z\s+Error failed to build app: failed to build app$/));
    expect(lines).toContain(wildLineNo(tauri, /cannot find -lwebkit2gtk-4\.1/));
  });

  const jest = 'gha-small-jest-firebase-emulator-fail';
  onMirror(jest)("npm 10's `npm error Lifecycle script \\`test\\` failed with error:` restates the script's failure", async () => {
    expect(await evidenceOf(jest)).not.toContain(wildLineNo(jest, /Z npm error Lifecycle script `test` failed with error:/));
  });

  const ctest = 'gha-small-ctest-pattern-not-found';
  const eslint = 'gha-small-eslint-prefer-const';
  onMirror(ctest)("CTest's `--rerun-failed` advice and ESLint's `potentially fixable with the --fix option` are advice, not evidence", async () => {
    expect(await evidenceOf(ctest)).not.toContain(wildLineNo(ctest, /Z Use "--rerun-failed --output-on-failure"/));
    if (hasWildLog(eslint)) {
      const lines = await evidenceOf(eslint);
      expect(lines).not.toContain(wildLineNo(eslint, /potentially fixable with the `--fix` option/));
      expect(lines).toContain(wildLineNo(eslint, /✖ 5 problems/));
    }
  });

  const release = 'gha-small-gh-release-403-retries';
  const vitest = 'gha-small-vitest-failed-suite-db';
  onMirror(release)("an action's `##[error]` annotation that repeats a line it printed above is a restatement", async () => {
    const lines = await evidenceOf(release);
    expect(lines).toContain(wildLineNo(release, /Z ❌ Too many retries\. Aborting\.\.\.$/));
    expect(lines).not.toContain(wildLineNo(release, /Z ##\[error\]Too many retries\.$/));
    if (hasWildLog(vitest)) {
      expect(await evidenceOf(vitest)).not.toContain(wildLineNo(vitest, /Z ##\[error\]Error: Test timed out in 30000ms\.$/));
    }
    // An annotation repeating an earlier annotation (ESLint's same rule in two files) is a report of its own.
    const annotated = [
      { n: 1, text: '##[error]  21:22  error  A `require()` style import is forbidden' },
      { n: 2, text: '/src/b.test.ts' },
      { n: 3, text: '##[error]  21:22  error  A `require()` style import is forbidden' },
    ];
    expect(restatedAnnotations(annotated).size).toBe(0);
  });

  const compose = 'gha-small-docker-compose-unhealthy';
  onMirror(compose)("`docker compose up --wait`: the resource states are progress, and `container … is unhealthy` says what failed", async () => {
    expect(await evidenceOf(compose)).toEqual([wildLineNo(compose, /Z container webwhiteboard-app-1 is unhealthy$/)]);
    expect(isStepMarker(' Container webwhiteboard-postgres  Healthy')).toBe(true);
    expect(errorScore('container webwhiteboard-app-1 is unhealthy')).toBeGreaterThan(0.5);
  });

  const babel = 'travis-bugswarm-babel-jest-make-test-ci';
  onMirror(babel)("jest's `FAIL file` heading a failure quoted whole and its later `●` failures are one runner's: the later ones are left out", async () => {
    const lines = await evidenceOf(babel);
    expect(lines).toContain(wildLineNo(babel, /^\s+● @babel\/code-frame › opts\.highlightCode/));
    expect(lines).not.toContain(wildLineNo(babel, /^\s+● @babel\/code-frame › opts\.forceColor/));
  });
});
