import { describe, expect, it } from 'vitest';
import { logLines } from '../../helpers/log.js';
import { infraMatcher } from '../../../src/extract/matchers/infra.js';
import { scanLog } from '../../../src/log/scan-log.js';
import { openLog } from '../../../src/log/open-log.js';
import { findFailingStep } from '../../../src/log/find-failing-step.js';

const extract = (path: string) => infraMatcher.extract(logLines(path));
const logOf = (name: string) => `fixtures/logs/${name}/log.txt`;
const wildOf = (name: string) => `fixtures/wild/${name}/log.txt`;
const infra = { kind: 'diagnostic', tool: 'infra', severity: 'error', category: 'infra', weight: 0.8 } as const;

describe('infraMatcher', () => {
  it("reads V8's heap out of memory", () => {
    expect(extract(logOf('node-heap-out-of-memory'))).toEqual([
      { ...infra, message: 'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory', logLine: 29 },
    ]);
  });

  it("reads bash's Killed report and the runner's exit code 137 as one signal", () => {
    expect(extract(logOf('timeout-killed-137'))).toEqual([
      {
        ...infra,
        message: 'bash: line 1: 16087 Killed                  timeout -s KILL 8 npm run test:integration',
        logLine: 54,
        related: [55],
      },
    ]);
  });

  it('merges a full disk into one signal with a bounded list of the other failed writes', () => {
    const [signal, ...rest] = extract(logOf('enospc-copy-artifacts'));
    expect(rest).toEqual([]);
    expect(signal).toEqual({
      ...infra,
      message: "cp: error writing '/mnt/redline-enospc/site/post-17.html': No space left on device",
      logLine: 6,
      related: [7, 8, 9, 10, 11, 12, 13, 14, 15, 16],
    });
  });

  it('reads DNS failures from curl, pip and cargo', () => {
    expect(extract(logOf('curl-could-not-resolve-host'))).toEqual([
      { ...infra, message: 'curl: (6) Could not resolve host: github.com', logLine: 14 },
    ]);
    expect(extract(logOf('pip-install-network-error'))).toEqual([
      expect.objectContaining({ category: 'infra', logLine: 19, related: [20, 21, 22, 23] }),
    ]);
    // cargo's three `warning: spurious network error` retries are warnings it survived; the final
    // `Caused by: … Could not resolve host` is the error that ended the step.
    expect(extract(logOf('cargo-registry-unreachable'))).toEqual([
      expect.objectContaining({ category: 'infra', severity: 'warning', logLine: 19, related: [20, 21] }),
      expect.objectContaining({ category: 'infra', severity: 'error', logLine: 31 }),
    ]);
  });

  it('reads a job the runner canceled, in a 2 MB real log', () => {
    const lines = logLines('fixtures/real-logs/terminated-2026328035.log');
    expect(infraMatcher.extract(lines)).toEqual([{ ...infra, message: '##[error]The operation was canceled.', logLine: 16552 }]);
  });

  it("reads the CI's own set-up failing in real Travis logs (fixtures/wild/): a key download that fed apt-key no key, an image without the requested JDK", () => {
    expect(extract(wildOf('travis-bugswarm-helios-docker-gpg-key'))).toEqual([{ ...infra, message: 'gpg: no valid OpenPGP data found.', logLine: 95 }]);
    expect(extract(wildOf('travis-bugswarm-gwt-bootstrap-jdk-switcher-eol'))).toEqual([
      { ...infra, message: 'Sun/Oracle JDK 6 is EOL since November 2012, and is no longer supported. Please consider upgrading...', logLine: 72 },
    ]);
  });

  it("reads apt's summary of dpkg failing to set up the machine's own packages (a real Travis log)", () => {
    expect(extract(wildOf('travis-bugswarm-quality-tools-dpkg-bluez'))).toEqual([
      expect.objectContaining({ ...infra, message: 'E: Sub-process /usr/bin/dpkg returned an error code (1)', logLine: 138 }),
    ]);
  });

  it("reads a tool of the TeamCity agent's own folder that cannot load itself, quoted from node's `Error: Cannot find module` header", async () => {
    // The agent's timestamps and step indent cut, as findFailingStep hands the lines to the matchers.
    const scan = await scanLog(openLog(wildOf('teamcity-npm-custom-tool-broken-symlink')));
    const layout = findFailingStep(scan.lines, scan.sections, scan.totalLines);
    expect(infraMatcher.extract(layout.lines ?? scan.lines)).toEqual([
      { ...infra, message: '- /opt/buildagent/tools/node-v24.19.0-linux-x64/node-v24.19.0-linux-x64/bin/npm', logLine: 9 },
    ]);
  });

  it('says nothing about dependency and code failures', () => {
    expect(extract(logOf('npm-e404-missing-package'))).toEqual([]);
    expect(extract(logOf('npm-eresolve-peer-conflict'))).toEqual([]);
    expect(extract(logOf('python-module-not-found'))).toEqual([]);
    expect(extract(logOf('go-missing-go-sum'))).toEqual([]);
    expect(extract('fixtures/real-logs/javascript-jest-2547772887.log')).toEqual([]);
    // A test named "websocket connection emits status code 500" is not a registry outage.
    expect(extract('fixtures/real-logs/javascript-mocha-2406840580.log')).toEqual([]);
    // A project's own missing module (its require stack names the project's files) is not the agent's.
    expect(extract(logOf('node-cannot-find-module'))).toEqual([]);
    expect(infraMatcher.extract([])).toEqual([]);
  });
});
