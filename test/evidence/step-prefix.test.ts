import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/diagnose.js';
import { wildLineNo, wildLog } from '../helpers/wild.js';

/** Blocks whose structure a per-line prefix or a bare heading hides, on real logs of fixtures/wild/ (label.json names each source). */
const wild = wildLog;
const lineNo = wildLineNo;
const evidenceOf = async (id: string) => (await diagnose({ log: wild(id) })).evidence;

describe("BuildKit's `#N S.SS ` prefix is read like a timestamp", () => {
  it('quotes the Turbopack error with its code frame, in the log\'s own text (hiveedu, Jenkins)', async () => {
    const id = 'jenkins-pipeline-hiveedu-docker-turbopack';
    const head = lineNo(id, /Error: Turbopack build failed/);
    const caret = lineNo(id, /^#\d+ [\d.]+ +\| \^+$/, head);
    const ev = await evidenceOf(id);
    const lines = ev.map((e) => e.line);
    for (let n = head; n <= caret; n++) expect(lines).toContain(n);
    expect(ev.find((e) => e.line === head)?.text).toMatch(/^#29 35\.78 Error: Turbopack/);
  });
});

describe("anyhow's bare `Caused by:` heading", () => {
  it('quotes the cause under the cargo error (rust-lang/rust, Azure)', async () => {
    const id = 'azure-rust-71660-cargo-patch-retries';
    const at = lineNo(id, /^error: failed to resolve patches/);
    const lines = (await evidenceOf(id)).map((e) => e.line);
    expect(lines).toEqual([at, at + 2, at + 3]);
  });
});
