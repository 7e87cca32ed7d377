import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { realPin } from '../helpers/real-pin.js';
import { diagnose } from '../../src/diagnose.js';
import { extractSignals } from '../../src/extract/extract-signals.js';
import { antTaskLine, withoutTaskPrefix } from '../../src/extract/task-prefix.js';
import { cleanLine } from '../../src/log/clean.js';

const linesOf = (path: string) =>
  readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8').split('\n').map((t, i) => ({ n: i + 1, text: cleanLine(t) }));

/**
 * Ant prints every line of a task's output under the task's name, right-aligned in a 12-column gutter
 * (`    [javac] File.java:425: error: cannot find symbol`). javac's matcher, reading `^File.java:N: error:`, missed
 * them all, so an Ant build's compile errors were no evidence and Ant's own `build.xml:16: Compile failed` was
 * the pin. Real logs: two BugSwarm dissection Travis jobs (fixtures/real-pins, run where the mirrors are) and
 * the recorded fixtures below.
 */
describe('Ant\'s task column', () => {
  it('is cut for the tools\' matchers, and only Ant\'s right-aligned column is', () => {
    // sbt's level tag starts its line and is not Ant's column (fixtures/recorded/scala/sbt-errorformat.log).
    const sbt = linesOf('fixtures/recorded/scala/sbt-errorformat.log').filter((l) => /^\[(error|info|warn)\] /.test(l.text));
    expect(sbt.length).toBeGreaterThan(0);
    expect(sbt.every((l) => antTaskLine(l.text) === undefined)).toBe(true);
    expect(withoutTaskPrefix(sbt)).toBe(sbt);
  });

  it('is still read by Ant\'s matcher: a task\'s error above BUILD FAILED (LogisticsPipes, `[get] Error getting …`)', () => {
    const lines = linesOf('fixtures/wild/travis-bugswarm-logisticspipes-356.3/log.txt');
    const get = lines.find((l) => l.text.includes('[get] Error getting'))!;
    expect(antTaskLine(get.text)?.task).toBe('get');
    const { signals } = extractSignals(lines);
    expect(signals.some((s) => s.tool === 'ant' && s.logLine === get.n && s.message.startsWith('[get] Error getting'))).toBe(true);
  });

  const whiley = realPin('Whiley-WhileyCompiler-105087643');
  describe.skipIf(!whiley.available)('a javac error under Ant (real WhileyCompiler failure)', () => {
    it('pins javac\'s error line, not the build file\'s `Compile failed`', async () => {
      const { tree, log } = whiley.checkout();
      const d = await diagnose({ log, repo: tree });
      // `method type in class AbstractMultiNaryAssignable<T> cannot be applied to given types` at line 870,
      // which the real fix changed; before: build.xml:24.
      expect(`${d.findings[0]!.file}:${d.findings[0]!.line}`).toBe('modules/wyjc/src/wyjc/Wyil2JavaBuilder.java:870');
    }, 120_000);
  });

  const korra = realPin('ProjectKorra-ProjectKorra-80564294');
  describe.skipIf(!korra.available)('javac errors under Ant are the evidence (real ProjectKorra failure)', () => {
    it('quotes `[javac] …PKListener.java:425: error: cannot find symbol` and its detail, not only BUILD FAILED', async () => {
      const { tree, log } = korra.checkout();
      const d = await diagnose({ log, repo: tree });
      expect(d.evidence[0]!.text).toMatch(/\[javac\] .*PKListener\.java:425: error: cannot find symbol$/);
      expect(d.evidence.some((e) => /\[javac\] +location: class MetalClips$/.test(e.text))).toBe(true);
      expect(d.findings[0]!.file).toBe('src/com/projectkorra/projectkorra/PKListener.java');
    }, 120_000);
  });
});
