import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { scanLog } from '../../src/log/scan-log.js';
import { openLog } from '../../src/log/open-log.js';
import { findFailingStep } from '../../src/log/find-failing-step.js';
import { findMarkers } from '../../src/log/markers.js';
import { cleanLine } from '../../src/log/clean.js';
import { diagnose } from '../../src/diagnose.js';

/**
 * Real Travis and GitLab job logs (fixtures/ci-formats/README.md: sources, licences). Both were copied
 * out of a search index that dropped `\r` and ESC sequences, so markers run into the next text.
 */
const FORMATS = new URL('../../fixtures/ci-formats/', import.meta.url);
const TRAVIS = new URL('travis-bugswarm-113007194.log', FORMATS).pathname;
const GITLAB = new URL('gitlab-trace-with-sections.log', FORMATS).pathname;

async function layoutOf(source: string | Readable) {
  const scan = await scanLog(openLog(source));
  return { scan, layout: findFailingStep(scan.lines, scan.sections, scan.totalLines) };
}

describe('Travis: BugSwarm 113007194 (python -m unittest fails)', () => {
  it('records every marker, also several on one line, with names cut where the next text starts', async () => {
    const { scan } = await layoutOf(TRAVIS);
    const folds = scan.sections.filter((m) => !m.timer).map((m) => `${m.n} ${m.kind} ${m.name}`);
    expect(folds).toEqual([
      '3 start system_info', // travis_fold:start:system_infoBuild system information
      '67 end system_info',
      '68 start fix.CVE-2015-7547', // …7547$ export DEBIAN_FRONTEND=noninteractive
      '107 end fix.CVE-2015-7547', // line 107 holds an end, a start and a timer start
      '107 start git.checkout',
      '118 end git.checkout',
    ]);
    const timers = scan.sections.filter((m) => m.timer).map((m) => `${m.n} ${m.kind} ${m.name}`);
    expect(timers).toEqual(['107 start 049455cc', '116 end 049455cc', '122 start 19ab1952', '124 end 19ab1952', '129 start 00225a4b', '337 end 00225a4b']);
    expect(scan.sections.every((m) => m.ci === 'travis')).toBe(true);
  });

  it('cleanLine strips the markers and keeps the text after them', async () => {
    const { scan } = await layoutOf(TRAVIS);
    const at = (n: number) => scan.lines[n - 1]!.text;
    expect(at(3)).toBe('Build system information');
    expect(at(67)).toBe('');
    expect(at(68)).toBe('$ export DEBIAN_FRONTEND=noninteractive');
    expect(at(107)).toMatch(/^\$ git clone --depth=50 /);
    expect(at(116)).toBe('$ cd wbond/package_control_channel');
    expect(at(129)).toBe('$ python -m unittest');
    expect(at(337)).toBe('');
  });

  it('the failing step is the timed command before `The command "python -m unittest" exited with 1.`', async () => {
    const { scan, layout } = await layoutOf(TRAVIS);
    expect(scan.totalLines).toBe(340);
    expect(layout.format).toBe('travis');
    expect(layout.failing).toEqual({ name: 'python -m unittest', startLine: 129, endLine: 338, kind: 'user', errorLines: [338], exitCode: 1 });
    expect(scan.lines[337]!.text).toBe('The command "python -m unittest" exited with 1.');
    expect(layout.steps.map((s) => [s.name.split(' ').slice(0, 2).join(' '), s.startLine, s.endLine])).toEqual([
      ['system_info', 3, 67],
      ['fix.CVE-2015-7547', 68, 107],
      ['git.checkout', 107, 118],
      ['git clone', 107, 116],
      ['source ~/virtualenv/python3.3/bin/activate', 122, 124],
      ['python -m', 129, 338],
    ]);
  });

  it('diagnose quotes the unittest failure and names the test file', async () => {
    const d = await diagnose({ log: TRAVIS });
    expect(d.failingStep).toEqual({ name: 'python -m unittest', startLine: 129, endLine: 338, format: 'travis' });
    expect(d.category).toBe('test');
    const ev = d.evidence.map((e) => `${e.line}: ${e.text}`);
    expect(ev).toContain("139: AssertionError: Lists differ: ['M3U Syntax', 'M68k Assembly'... != ['M3U Syntax', 'M68k Assembly'...");
    expect(ev.some((e) => e.startsWith('137:') && e.includes('tests/test.py", line 271'))).toBe(true);
    for (const e of d.evidence) expect(e.line! >= 129 && e.line! <= 338).toBe(true);
    expect(d.findings[0]).toMatchObject({ file: 'tests/test.py', line: 271 });
  });
});

describe('GitLab: gitlabhq spec/fixtures/trace/trace_with_sections (a passing job)', () => {
  it('records all sections, several per line, names cut before the next marker or the text', async () => {
    const { scan } = await layoutOf(GITLAB);
    expect(scan.sections.map((m) => `${m.n} ${m.kind} ${m.name}`)).toEqual([
      '6 start prepare_script', // section_start:1506004954:prepare_scriptWaiting for pod …
      '8 end prepare_script',
      '8 start get_sources',
      '12 end get_sources',
      '12 start restore_cache',
      '12 end restore_cache',
      '12 start download_artifacts',
      '12 end download_artifacts',
      '12 start build_script', // …build_script$ whoami
      '14 end build_script',
      '14 start after_script',
      '14 end after_script',
      '14 start archive_cache',
      '14 end archive_cache',
      '14 start upload_artifacts',
      '14 end upload_artifacts', // …upload_artifactsJob succeeded
    ]);
    expect(scan.sections.every((m) => m.ci === 'gitlab')).toBe(true);
    const at = (n: number) => scan.lines[n - 1]!.text;
    expect(at(6)).toMatch(/^Waiting for pod default\//);
    expect(at(8)).toBe('Cloning repository...');
    expect(at(12)).toBe('$ whoami');
    expect(at(14)).toBe('Job succeeded');
  });

  it('format gitlab (from the markers, not from a job error), steps in order, nothing failing', async () => {
    const { layout } = await layoutOf(GITLAB);
    expect(layout.format).toBe('gitlab');
    expect(layout.failing).toBeNull();
    expect(layout.steps.find((s) => s.name === 'build_script')).toMatchObject({ startLine: 12, endLine: 14 });
    expect(layout.steps.map((s) => s.name)).toEqual(['prepare_script', 'get_sources', 'restore_cache', 'download_artifacts', 'build_script', 'after_script', 'archive_cache', 'upload_artifacts']);
  });

  it('diagnose: no failing step, no crash, no location', async () => {
    const d = await diagnose({ log: GITLAB });
    expect(d.failingStep).toBeNull();
    expect(d.findings).toEqual([]);
    expect(d.status).toBe('no-location');
  });

  it('derived failing job (the real trace with its last line turned into the job error): the script section fails, not after_script', async () => {
    const text = readFileSync(GITLAB, 'utf8').replace('Job succeeded', 'ERROR: Job failed: exit code 1');
    const { layout } = await layoutOf(Readable.from([Buffer.from(text)]));
    expect(layout.format).toBe('gitlab');
    expect(layout.failing).toEqual({ name: 'build_script', startLine: 12, endLine: 14, kind: 'user', errorLines: [14], exitCode: 1 });
    expect(layout.steps.filter((s) => s.errorLines.length)).toHaveLength(1);
  });
});

describe('markers with their real bytes (`\\r\\x1b[0K` after each, as the runners write them)', () => {
  it('GitLab: [collapsed=true], two markers on one line, text after', () => {
    const raw = 'section_end:1790797104:prepare_executor\r\x1b[0Ksection_start:1790797104:step_script[collapsed=true]\r\x1b[0K\x1b[0K\x1b[36;1mExecuting "step_script" stage\x1b[0;m';
    expect(findMarkers(raw, 5)).toEqual([
      { n: 5, kind: 'end', name: 'prepare_executor', ci: 'gitlab' },
      { n: 5, kind: 'start', name: 'step_script', ci: 'gitlab' },
    ]);
    expect(cleanLine(raw)).toBe('Executing "step_script" stage');
  });

  it('Travis: fold end + fold start + timer on one line', () => {
    const raw = 'travis_fold:end:worker_info\r\x1b[0Ktravis_fold:start:system_info\r\x1b[0K\x1b[33;1mBuild system information\x1b[0m';
    expect(findMarkers(raw, 1).map((m) => `${m.kind} ${m.name}`)).toEqual(['end worker_info', 'start system_info']);
    expect(cleanLine(raw)).toBe('Build system information');
    const timed = 'travis_time:end:00225a4b:start=1456878935957671020,finish=1456878937170904968,duration=1213233948\r\x1b[0K\x1b[31;1mThe command "python -m unittest" exited with 1.\x1b[0m';
    expect(findMarkers(timed, 2)).toEqual([{ n: 2, kind: 'end', name: '00225a4b', ci: 'travis', timer: true }]);
    expect(cleanLine(timed)).toBe('The command "python -m unittest" exited with 1.');
  });

  it('without the control bytes: worker_infotravis_fold:start:system_infoBuild …', () => {
    expect(findMarkers('travis_fold:end:worker_infotravis_fold:start:system_infoBuild system information', 1).map((m) => `${m.kind} ${m.name}`)).toEqual(['end worker_info', 'start system_info']);
  });
});
