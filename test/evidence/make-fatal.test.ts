import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/diagnose.js';
import { errorScore, isConsequence } from '../../src/evidence/vocabulary.js';

/**
 * make's own fatal error (`make: *** No rule to make target …  Stop.`) is the cause; its `*** [target]
 * Error N` only echoes a recipe that failed above it. Real Jenkins consoles of builder.linuxtv.org
 * (fixtures/wild/, sources in their label.json).
 */
const wild = (id: string) => new URL(`../../fixtures/wild/${id}/log.txt`, import.meta.url).pathname;

describe("make's fatal errors", () => {
  it('quotes `No rule to make target … Stop.` when it is the last thing the step printed', async () => {
    const d = await diagnose({ log: wild('jenkins-freestyle-xawtv4-make') });
    expect(d.evidence.map((e) => e.text)).toContain("make: *** No rule to make target '-Wl,-E', needed by 'console/streamer'.  Stop.");
  });

  it('reads the fatal form as an error and the recipe echo as a consequence', () => {
    const fatal = "make: *** No rule to make target '-Wl,-E', needed by 'console/streamer'.  Stop.";
    expect(isConsequence(fatal)).toBe(false);
    expect(errorScore(fatal)).toBeGreaterThan(0.5);
    expect(isConsequence('make[2]: *** [Makefile:412: console/streamer] Error 1')).toBe(true);
    expect(isConsequence('make: *** Waiting for unfinished jobs....')).toBe(true);
  });
});
