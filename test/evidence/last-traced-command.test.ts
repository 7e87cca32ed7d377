import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { diagnose } from '../../src/diagnose.js';
import { lastTracedCommand } from '../../src/evidence/last-traced-command.js';

// A real Jenkins freestyle console (fixtures/wild/jenkins-freestyle-xawtv4-make, builder.linuxtv.org; its
// label.json names the source): `/bin/sh -xe` runs ./autogen.sh, ./configure (whose glib check prints
// `No package 'glib' found` and goes on), then `make`, which fails.
const LOG = new URL('../../fixtures/wild/jenkins-freestyle-xawtv4-make/log.txt', import.meta.url).pathname;
const text = readFileSync(LOG, 'utf8').split('\n');
const lineOf = (re: RegExp) => text.findIndex((l) => re.test(l)) + 1;

describe('a `sh -xe` step fails in its last traced command', () => {
  it("quotes make's failure, not the configure check the step survived before it", async () => {
    const d = await diagnose({ log: LOG });
    const lines = d.evidence.map((e) => e.line);
    expect(lines[0]).toBe(lineOf(/^make: \*\*\* No rule to make target/));
    expect(lines).not.toContain(lineOf(/^Package glib was not found/));
  });

  it('cuts the step at the last command the script traced, and leaves other steps alone', () => {
    const step = text.slice(29, 167).map((t, i) => ({ n: 30 + i, text: t }));
    expect(lastTracedCommand(step)?.[0]?.text).toBe('+ make verbose=1');
    // Without `-e` a traced command may fail and the script go on: nothing is cut.
    const noErrexit = step.map((l, i) => (i === 0 ? { ...l, text: l.text.replace('-xe', '-x') } : l));
    expect(lastTracedCommand(noErrexit)).toBeUndefined();
  });
});
