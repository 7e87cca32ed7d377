import { describe, expect, it } from 'vitest';
import { logLines } from '../../helpers/log.js';
import { packageManagerMatcher } from '../../../src/extract/matchers/package-managers.js';

const extract = (path: string) => packageManagerMatcher.extract(logLines(path));
const logOf = (name: string) => `fixtures/logs/${name}/log.txt`;

describe('packageManagerMatcher: npm', () => {
  it('reads E404 as a dependency and names the package from the registry URL', () => {
    expect(extract(logOf('npm-e404-missing-package'))).toEqual([
      {
        kind: 'diagnostic',
        symbol: 'transliterate-slugz',
        message: 'E404: 404 Not Found - GET https://registry.npmjs.org/transliterate-slugz',
        tool: 'npm',
        severity: 'error',
        category: 'dependency',
        weight: 0.8,
        logLine: 18,
        related: [19],
      },
    ]);
  });

  it('reads `npm ci` lockfile drift and names the package missing from the lock file', () => {
    expect(extract(logOf('npm-ci-lockfile-out-of-sync'))).toEqual([
      expect.objectContaining({
        symbol: 'ms',
        message: 'EUSAGE: Missing: ms@2.1.3 from lock file',
        category: 'dependency',
        logLine: 19,
        related: [23],
      }),
    ]);
  });

  it('names the root dependency that ERESOLVE could not resolve, not the one it found', () => {
    expect(extract(logOf('npm-eresolve-peer-conflict'))).toEqual([
      expect.objectContaining({
        symbol: 'react-dom',
        message: 'ERESOLVE: ERESOLVE unable to resolve dependency tree',
        category: 'dependency',
        logLine: 1,
        related: [2, 10, 12],
      }),
    ]);
  });

  it('reads ERESOLVE behind a docker-compose prefix in a real job log', () => {
    const signals = extract('fixtures/real-logs/javascript-jest-2547772887.log');
    expect(signals[0]).toEqual(
      expect.objectContaining({ symbol: '@semantic-release/commit-analyzer', tool: 'npm', logLine: 461, related: [462, 476] }),
    );
    // jest's "Cannot find module 'fs.extra' from 'generator.js'" twice: one signal, the repeat as related.
    expect(signals[1]).toEqual(
      expect.objectContaining({ symbol: 'fs.extra', tool: 'node', category: 'dependency', logLine: 520, related: [563] }),
    );
    expect(signals).toHaveLength(2);
  });

  it('calls an unreachable registry infra, not a dependency problem', () => {
    expect(extract(logOf('npm-registry-unreachable'))).toEqual([
      expect.objectContaining({
        symbol: 'lodash',
        message:
          'ECONNREFUSED: FetchError: request to http://127.0.0.1:9/lodash failed, reason: connect ECONNREFUSED 127.0.0.1:9',
        category: 'infra',
        logLine: 1,
        // the request that failed, and npm's proxy advice under the dumped error object
        related: [4, 20],
      }),
    ]);
  });
});

describe('packageManagerMatcher: pnpm and yarn', () => {
  it("names the package pnpm's frozen lockfile and package.json disagree on", () => {
    expect(extract(logOf('pnpm-frozen-lockfile-outdated'))).toEqual([
      {
        kind: 'diagnostic',
        symbol: 'semver',
        message:
          'ERR_PNPM_OUTDATED_LOCKFILE: Cannot install with "frozen-lockfile" because pnpm-lock.yaml is not up to date with <ROOT>/package.json',
        tool: 'pnpm',
        severity: 'error',
        category: 'dependency',
        weight: 0.8,
        logLine: 18,
        related: [23],
      },
    ]);
  });

  it("reads yarn's unknown package", () => {
    expect(extract(logOf('yarn-package-not-found'))).toEqual([
      expect.objectContaining({
        symbol: 'csv-stringifyr',
        message: 'Couldn\'t find package "csv-stringifyr" on the "npm" registry.',
        tool: 'yarn',
        category: 'dependency',
        logLine: 4,
      }),
    ]);
  });
});

describe('packageManagerMatcher: runtimes, pip, cargo, go', () => {
  it("reads node's MODULE_NOT_FOUND inside TAP output, with the requiring file", () => {
    expect(extract(logOf('node-cannot-find-module'))).toEqual([
      {
        kind: 'diagnostic',
        path: '/home/runner/work/node-cannot-find-module/node-cannot-find-module/src/columns.js',
        symbol: 'left-padx',
        message: "Cannot find module 'left-padx'",
        tool: 'node',
        severity: 'error',
        category: 'dependency',
        weight: 0.8,
        logLine: 27,
      },
    ]);
  });

  it("reads Python's ModuleNotFoundError from pytest's collection error", () => {
    expect(extract(logOf('python-module-not-found'))).toEqual([
      expect.objectContaining({
        symbol: 'humanize',
        message: "ModuleNotFoundError: No module named 'humanize'",
        tool: 'python',
        category: 'dependency',
        logLine: 20,
      }),
    ]);
  });

  it('calls "No matching distribution" infra when pip could not reach the index at all', () => {
    expect(extract(logOf('pip-install-network-error'))).toEqual([
      expect.objectContaining({
        symbol: 'requests',
        message: 'No matching distribution found for requests==2.32.3',
        tool: 'pip',
        category: 'infra',
        logLine: 25,
        related: [24],
      }),
    ]);
  });

  it('reads cargo offline resolution failures as a dependency on the named crate', () => {
    expect(extract(logOf('cargo-offline-no-matching-package'))).toEqual([
      expect.objectContaining({
        symbol: 'semver-parser',
        message: 'no matching package named `semver-parser` found',
        tool: 'cargo',
        category: 'dependency',
        logLine: 1,
      }),
    ]);
  });

  it("calls cargo's fetch failure infra when its Caused-by chain is a DNS error", () => {
    expect(extract(logOf('cargo-registry-unreachable'))).toEqual([
      expect.objectContaining({ symbol: 'anyhow', tool: 'cargo', category: 'infra', logLine: 22 }),
    ]);
  });

  it('keeps the location of a missing go.sum entry', () => {
    expect(extract(logOf('go-missing-go-sum'))).toEqual([
      {
        kind: 'diagnostic',
        path: 'internal/ids/ids.go',
        line: 7,
        column: 2,
        symbol: 'github.com/google/uuid',
        message:
          'missing go.sum entry for module providing package github.com/google/uuid (imported by example.com/ticketd/internal/ids); to add:',
        tool: 'go',
        severity: 'error',
        category: 'dependency',
        weight: 1.0,
        logLine: 18,
      },
    ]);
  });

  it('says nothing about logs that are not a package failure', () => {
    expect(extract(logOf('node-heap-out-of-memory'))).toEqual([]);
    expect(extract(logOf('timeout-killed-137'))).toEqual([]);
    expect(extract(logOf('enospc-copy-artifacts'))).toEqual([]);
    expect(packageManagerMatcher.extract([])).toEqual([]);
  });

  it('says nothing about a 2 MB real job log with no package-manager failure', () => {
    const lines = logLines('fixtures/real-logs/terminated-2026328035.log');
    expect(packageManagerMatcher.extract(lines)).toEqual([]);
  });

  it("ends an npm network error's block at the request that failed, before the error object npm dumps; its proxy advice after the dump is related", () => {
    // `npm ci` against a registry on a closed loopback port (fixtures/wild/rec-gha-npm-registry-refused).
    const [s] = packageManagerMatcher.extract(logLines('fixtures/wild/rec-gha-npm-registry-refused/log.txt')).filter((x) => x.tool === 'npm');
    expect(s).toMatchObject({ category: 'infra', logLine: 28, related: [31, 46], blockEnd: 31 });
  });
});
