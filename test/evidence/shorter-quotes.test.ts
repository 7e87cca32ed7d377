import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/diagnose.js';
import { withoutLongReportRun, withoutPlumbing } from '../../src/evidence/select-blocks.js';
import { hasWildLog, wildLog, wildLineNo } from '../helpers/wild.js';

/**
 * Issue 14's precision round: how long a quoted block runs, on real logs of the wild corpus (read from their
 * mirrors; skipped where they are not on the machine). External frames above a trace's first own frame, a
 * compiler's long run of one-line reports.
 */
const evidenceOf = async (id: string) => (await diagnose({ log: wildLog(id) })).evidence.map((e) => e.line);
const onMirror = (id: string) => (hasWildLog(id) ? it : it.skip);
const linesOf = (id: string) => new Map(readFileSync(wildLog(id), 'utf8').split('\n').map((t, i) => [i + 1, t] as const));

describe('shorter quotes', () => {
  const sonar = 'travis-dissection-sonar-xml-maven-license-resource';
  onMirror(sonar)("Maven's descent from MojoExecutor to the launcher above a plugin's own frames is cut to its first few frames", async () => {
    const lines = await evidenceOf(sonar);
    const first = wildLineNo(sonar, /^\tat org\.apache\.maven\.lifecycle\.internal\.MojoExecutor\.execute/);
    const launcher = wildLineNo(sonar, /^\tat org\.codehaus\.plexus\.classworlds\.launcher\.Launcher\.main\(/);
    expect(lines).toContain(wildLineNo(sonar, /^Caused by: org\.apache\.maven\.plugin\.MojoFailureException: Resource/));
    expect(lines).toContain(first);
    // Three external frames, then the run's own (non-external) ones: the 12 Maven and reflection frames between are left out.
    const frames = lines.filter((n) => n >= first && n <= launcher);
    expect(frames.filter((n) => n < launcher - 3)).toHaveLength(3);
    expect(lines).not.toContain(wildLineNo(sonar, /^\tat org\.apache\.maven\.DefaultMaven\.doExecute/));
  });

  onMirror(sonar)('withoutPlumbing keeps the first three external frames above the first own one', () => {
    const text = linesOf(sonar);
    const start = wildLineNo(sonar, /^org\.apache\.maven\.lifecycle\.LifecycleExecutionException: Failed to execute goal/);
    const end = wildLineNo(sonar, /^\tat org\.codehaus\.plexus\.classworlds\.launcher\.Launcher\.main\(/);
    const nums = Array.from({ length: end - start + 1 }, (_, i) => start + i);
    // The exception line, three Maven frames, and the four plexus launcher frames (not on the external list).
    expect(withoutPlumbing(nums, text)).toEqual([start, start + 1, start + 2, start + 3, end - 3, end - 2, end - 1, end]);
  });

  const kotlin = 'gha-small-gradle-kotlin-compose-unresolved';
  onMirror(kotlin)("kotlinc's run of `e: file:…` reports around its task's header is quoted by its first ten lines as printed", async () => {
    const lines = await evidenceOf(kotlin);
    const text = linesOf(kotlin);
    const task = wildLineNo(kotlin, /Z > Task :app:compileDebugKotlin FAILED$/);
    const reports = lines.filter((n) => /Z e: file:\/\/\//.test(text.get(n) ?? ''));
    expect(reports[0]).toBe(wildLineNo(kotlin, /Z e: file:\/\/\//));
    // The four printed before the header, then the run after it up to the list's tenth printed line (session 30's
    // diagnostic-list stage: the header counts as printed, as the label's 238–247 has it).
    expect(reports.filter((n) => n < task)).toHaveLength(4);
    expect(reports.filter((n) => n > task)).toEqual([task + 1, task + 2, task + 3, task + 4, task + 5]);
    expect(lines).not.toContain(wildLineNo(kotlin, /Z e: file:\/\/\/\S+HomeViewModel\.kt:60:39 /));
  });

  it("a run of located reports is cut after its tenth line; frames (Maven's `[ERROR] \\tat` ones too) are not reports", () => {
    const texts = [
      ...Array.from({ length: 12 }, (_, i) => `e: file:///w/src/A.kt:${i + 1}:5 Unresolved reference: x${i}`),
      '> Task :app:compileDebugKotlin FAILED',
      'e: file:///w/src/B.kt:3:1 Unresolved reference: y',
    ];
    const text = new Map(texts.map((t, i) => [i + 1, t] as const));
    const nums = [...text.keys()];
    expect(withoutLongReportRun(nums, text)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 13, 14]);
    const frames = new Map(Array.from({ length: 12 }, (_, i) => [i + 1, `    at foo (src/a.js:${i + 1}:3)`] as const));
    expect(withoutLongReportRun([...frames.keys()], frames)).toHaveLength(12);
    const maven = new Map(Array.from({ length: 12 }, (_, i) => [i + 1, `[ERROR] \tat org.x.Y.run(Y.java:${i + 1})`] as const));
    expect(withoutLongReportRun([...maven.keys()], maven)).toHaveLength(12);
  });


  const chill = 'travis-dissection-chill-unittest-errors';
  onMirror(chill)("unittest's first ERROR is quoted; its later ones (the same test class's) are not", async () => {
    const lines = await evidenceOf(chill);
    const first = wildLineNo(chill, /^ERROR: test_a \(__main__\.DeleteMethod\)/);
    expect(lines[0]).toBe(first);
    expect(lines.filter((n) => /^(?:ERROR|FAIL): test/.test(linesOf(chill).get(n) ?? ''))).toEqual([first]);
  });
});
