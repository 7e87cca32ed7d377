import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/diagnose.js';
import { pythonFormatMatcher } from '../../src/extract/matchers/python-format.js';
import { logLines } from '../helpers/log.js';
import { hasWildLog, wildLog, wildLineNo } from '../helpers/wild.js';

/**
 * The second round of failed Actions jobs of small public projects (fixtures/wild/gha-small-*, read from
 * their mirrors): a Gradle task header printed after its reports, an apt error the script went on past,
 * pkg-config's words for a missing library, a release refused with 403, black's verdict inside its diff.
 * Read from the mirrors `fetch` brought; skipped where they are not on the machine.
 */
const evidenceOf = async (id: string) => {
  const d = await diagnose({ log: wildLog(id) });
  return { d, lines: d.evidence.map((e) => e.line) };
};
const onMirror = (id: string) => (hasWildLog(id) ? it : it.skip);

describe('small Actions jobs, second round', () => {
  const gradle = 'gha-small-gradle-kotlin-compose-unresolved';
  onMirror(gradle)("a Gradle task's reports printed before its `> Task :x FAILED` header are that task's, from the first", async () => {
    const { lines } = await evidenceOf(gradle);
    const header = wildLineNo(gradle, /Z > Task :app:compileDebugKotlin FAILED$/);
    const first = wildLineNo(gradle, /Z e: file:\/\/\//);
    expect(first).toBeLessThan(header);
    expect(lines[0]).toBe(first);
  });

  const apt = 'gha-small-docker-php-configure-libxml';
  onMirror(apt)('an apt error the script went on past (apt read its lists again below it) is not quoted; pkg-config\'s missing package is a dependency', async () => {
    const { d, lines } = await evidenceOf(apt);
    expect(lines).not.toContain(wildLineNo(apt, /E: Unable to locate package docker-compose-plugin/));
    expect(lines[0]).toBe(wildLineNo(apt, /configure: error: Package requirements \(libxml-2\.0 >= 2\.9\.0\) were not met:/));
    expect(d.category).toBe('dependency');
  });

  const release = 'gha-small-gh-release-403-retries';
  onMirror(release)('a release the service refused with 403, retried until the action gave up, is infra', async () => {
    const { d, lines } = await evidenceOf(release);
    expect(lines[0]).toBe(wildLineNo(release, /GitHub release failed with status: 403$/));
    expect(d.category).toBe('infra');
  });

  const black = 'gha-small-black-would-reformat';
  onMirror(black)("black's `would reformat` printed inside a --diff hunk (stderr merged into stdout) does not end the hunk", () => {
    const signals = pythonFormatMatcher.extract(logLines(wildLog(black)));
    const hunk = wildLineNo(black, /Z @@ -47,13 \+47,11 @@$/);
    expect(wildLineNo(black, /Z would reformat \S+github_actions_client\.py$/)).toBe(hunk + 1);
    const s = signals.find((x) => x.logLine === hunk);
    expect(s).toMatchObject({ path: '/home/runner/work/argos/argos/scout/scout/ci/github_actions_client.py', tool: 'black' });
    expect(s?.related).not.toContain(hunk + 1);
  });
  const tauri = 'gha-small-tauri-build-script-icon';
  onMirror(tauri)("a failed build script's `cargo:` directives are not quoted; its own message among them is", async () => {
    const { lines } = await evidenceOf(tauri);
    expect(lines[0]).toBe(wildLineNo(tauri, /failed to run custom build command for `namehold-wallet/));
    expect(lines).toContain(wildLineNo(tauri, /`icons\/icon\.ico` not found/));
    expect(lines).not.toContain(wildLineNo(tauri, /cargo:rerun-if-env-changed=TAURI_CONFIG/));
    expect(lines).not.toContain(wildLineNo(tauri, /cargo:PERMISSION_FILES_PATH=/));
  });

  const spring = 'travis-dissection-spring-data-jpa-surefire-init-error';
  onMirror(spring)("Spring's and Hibernate's own frames are plumbing: a run of them is quoted by its first few", async () => {
    // Not one of this round's logs: the Spring context trace of the Maven job above made the rule, this one checks it.
    const { lines } = await evidenceOf(spring);
    const text = (await import('node:fs')).readFileSync(wildLog(spring), 'utf8').split('\n');
    const frames = lines.filter((n) => /^\s+at org\.(?:springframework|hibernate)\./.test(text[n - 1]!.replace(/\x1b\[[0-9;]*m/g, '')));
    expect(frames.length).toBeGreaterThan(0);
    expect(frames.length).toBeLessThanOrEqual(3);
  });
  const npm = 'gha-small-npm-ci-eresolve-peer';
  onMirror(npm)("npm's advice under an ERESOLVE report (retry with --force, where the full report is) is not quoted; the conflict is", async () => {
    const { lines } = await evidenceOf(npm);
    expect(lines[0]).toBe(wildLineNo(npm, /npm error code ERESOLVE/));
    expect(lines).toContain(wildLineNo(npm, /npm error Conflicting peer dependency: eslint@10\.0\.3/));
    for (const advice of [/npm error Fix the upstream dependency conflict/, /npm error this command with --force/, /npm error For a full report see:/, /eresolve-report\.txt/]) {
      expect(lines).not.toContain(wildLineNo(npm, advice));
    }
  });
});
