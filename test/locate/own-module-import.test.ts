import { describe, expect, it } from 'vitest';
import { diagnoseWithTrace } from '../../src/diagnose.js';
import { isOwnModule } from '../../src/locate/blame-change.js';
import type { Workspace } from '../../src/repo/workspace.js';
import { realPin } from '../helpers/real-pin.js';

/**
 * Abjad/abjad, Travis job 375673938 (fixtures/real-pins/Abjad-abjad-375673938: the BugSwarm dissection's
 * failing log, the failing commit's tree, its parent as --base). pytest fails collecting with
 * `abjad/cli/__init__.py:5: in <module> … ModuleNotFoundError: No module named 'abjad.cli.DoctestScript'`;
 * the real fix changed that import line. The breaking diff (a 52-file move) adds a test that only uses
 * `abjad.cli.DoctestScript()` and a module whose line 2 (`import abjad.cli`) is the frame that called into
 * the report. Neither is the pin: the use did not make the project's own module missing, and the frame is
 * a caller of the line the report names. Runs where `fetch` brought the mirrors (like npm run bench:pins).
 */
const pin = realPin('Abjad-abjad-375673938');

describe.skipIf(!pin.available)("a missing module of the project's own (real Abjad failure)", () => {
  it('pins the import line the report names, with the breaking diff', async () => {
    const { tree, log } = pin.checkout();
    const { diagnosis, trace } = await diagnoseWithTrace({ log, repo: tree, base: pin.c.base });
    const top = diagnosis.findings[0]!;
    expect(`${top.file}:${top.line}`).toBe('abjad/cli/__init__.py:5');
    const use = trace.candidates.find((x: { file: string }) => x.file === 'abjad/cli/test/test_commandlinetools_DoctestScript.py')!;
    expect(use.notes).toContain("uses the project's own module; does not import it");
  }, 180_000);
});

/** Which missing modules are the project's own: names from the real-pins logs, against their trees' layouts. */
describe('isOwnModule', () => {
  const ws = (files: string[]) => ({ files }) as unknown as Workspace;
  it("is the project's own when its package is a folder of the checkout", () => {
    // Abjad-abjad-375673938: `No module named 'abjad.cli.DoctestScript'`, abjad/cli/ in the tree
    expect(isOwnModule(ws(['abjad/cli/__init__.py', 'setup.py']), 'abjad.cli.DoctestScript')).toBe(true);
    expect(isOwnModule(ws(['src/pkg/sub/a.py']), 'pkg.sub.b')).toBe(true);
    expect(isOwnModule(ws(['helpers.py']), 'helpers')).toBe(true);
  });
  it('is not for a third-party package, nor for a Java package the tree only shares a root with', () => {
    expect(isOwnModule(ws(['abjad/cli/__init__.py']), 'requests')).toBe(false);
    // kairosdb-kairosdb-171093894: `package org.testng.annotations does not exist`, the tree is src/main/java/org/kairosdb/
    expect(isOwnModule(ws(['src/main/java/org/kairosdb/core/CoreModule.java']), 'org.testng.annotations')).toBe(false);
  });
});
