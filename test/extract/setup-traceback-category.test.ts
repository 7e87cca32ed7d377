import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM helper shared with the benchmark
import { gitDirOf } from '../../scripts/bench-pins-lib.mjs';
import { diagnoseWithTrace } from '../../src/diagnose.js';

/**
 * Abjad/abjad, Travis job 315458775 (fixtures/real-pins/Abjad-abjad-315458775: the BugSwarm dissection's
 * failing log). Travis's `before_script` runs `python -c "import abjad; …"`, and the project's own package
 * dies at import with a traceback through abjad/tools/… — then `failed and exited with 1 during .`.
 * The set-up-phase rule (an unrecognised error while the machine is prepared is infra) must not take it:
 * code that ran and died is the project's failure, and the real fix changed Pattern.py. Runs where `fetch`
 * brought the BugSwarm-dissection mirror (like npm run bench:pins); skipped without it.
 */
const c = JSON.parse(readFileSync(new URL('../../fixtures/real-pins/Abjad-abjad-315458775/case.json', import.meta.url), 'utf8'));
const logGit = gitDirOf(c.log.dataset);

describe.skipIf(!logGit)('a traceback in a Travis set-up phase (real Abjad failure)', () => {
  it('is the failure of the project code that raised it, not infra', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'redline-setup-tb-'));
    const log = join(dir, 'failing.log');
    writeFileSync(log, execFileSync('git', [`--git-dir=${logGit}`, 'show', `${c.log.commit}:${c.log.path}`], { maxBuffer: 64 << 20 }));
    const { diagnosis, trace } = await diagnoseWithTrace({ log }).finally(() => rmSync(dir, { recursive: true, force: true }));
    expect(trace.layout.failing?.kind).toBe('setup');
    expect(diagnosis.evidence.some((e) => /^Traceback \(most recent call last\):/.test(e.text))).toBe(true);
    expect(diagnosis.category).not.toBe('infra');
    // The traceback ends in `SyntaxError: invalid syntax` at Pattern.py:751, the line the fix changed.
    expect(diagnosis.findings[0]).toMatchObject({ file: 'abjad/tools/datastructuretools/Pattern.py', line: 751 });
    expect(diagnosis.status).toBe('located');
  });
});
