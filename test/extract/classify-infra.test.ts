import { describe, expect, it } from 'vitest';
import { diagnoseWithTrace } from '../../src/diagnose.js';
import { classify } from '../../src/extract/classify.js';
import type { Signal } from '../../src/types.js';

/**
 * Infra only when infra ended the step: real logs in both directions (fixtures/ci-formats/README.md and
 * fixtures/real-logs/README.md: sources, licences; fixtures/logs: recorded cases).
 */
const ci = (name: string) => new URL(`../../fixtures/ci-formats/${name}`, import.meta.url).pathname;
const real = (name: string) => new URL(`../../fixtures/real-logs/${name}`, import.meta.url).pathname;
const recorded = (name: string) => new URL(`../../fixtures/logs/${name}/log.txt`, import.meta.url).pathname;

describe('a network warning the step survived is not the cause', () => {
  it('hivemall (Travis, BugSwarm): Maven `[WARNING] Could not transfer metadata … Name or service not known` early in `mvn test`, then a JUnit error: test, pinned', async () => {
    const { diagnosis: d, trace } = await diagnoseWithTrace({ log: ci('travis-bugswarm-hivemall-maven-warning.log') });
    expect(d.failingStep!.name).toBe('mvn test -B');
    // The warning is read, inside the failing step, and kept as a warning.
    const warning = trace.signals.find((s) => s.tool === 'infra')!;
    expect(warning.message).toMatch(/^\[WARNING\] Could not transfer metadata .*Name or service not known$/);
    expect(warning.severity).toBe('warning');
    expect(warning.logLine).toBeGreaterThanOrEqual(d.failingStep!.startLine);
    expect(d.category).toBe('test');
    expect(d.evidence.some((e) => e.text.includes('MixServerTest'))).toBe(true);
  });

  it('bentoml (Actions, BugSwarm): tests whose tracebacks hold `socket.gaierror: Name or service not known`, then the pytest summary: test, not infra', async () => {
    const { diagnosis: d, trace } = await diagnoseWithTrace({ log: real('python-2360239904-orig.log') });
    expect(trace.signals.some((s) => s.category === 'infra')).toBe(true);
    // The tests fail because a library's API changed under them (`module responses has no attribute
    // _is_string`): the wild corpus labels the same log dependency, the evidence alone reads as test. Either
    // is honest; infra is not.
    expect(['test', 'dependency']).toContain(d.category);
    expect(d.status).toBe('located');
  });
});

describe('infra that ended the step is infra, with no pin', () => {
  const cases: [string, string, RegExp][] = [
    ['Travis: the JVM cannot start (typesafehub/config, BugSwarm)', ci('travis-bugswarm-config-jvm-oom.log'), /insufficient memory for the Java Runtime Environment/],
    ['Travis: Maven cannot reach its snapshot repository (`Unknown host nexus.codehaus.org`) in the install phase (spring-cloud-config, BugSwarm)', ci('travis-bugswarm-spring-cloud-config-unknown-host.log'), /Unknown host nexus\.codehaus\.org/],
    ['Travis: the job hit the time limit (rust-lang/rust)', ci('travis-rust-time-limit-excerpt.log'), /^The job exceeded the maximum time limit/],
    ['Actions: the runner cancelled the job (apache/dubbo, BugSwarm)', real('terminated-2026328035.log'), /The operation was canceled/],
    ['cargo: three retries warned, then the registry could not be resolved', recorded('cargo-registry-unreachable'), /Could not resolve host: index\.crates\.io/],
    ['pip: retries, then no version found (the index unreachable)', recorded('pip-install-network-error'), /./],
    ['curl: could not resolve host', recorded('curl-could-not-resolve-host'), /Could not resolve host/],
    ['npm: registry unreachable', recorded('npm-registry-unreachable'), /./],
    ['disk full', recorded('enospc-copy-artifacts'), /No space left on device/],
    ['V8 heap out of memory', recorded('node-heap-out-of-memory'), /heap out of memory/],
    ['killed (exit 137)', recorded('timeout-killed-137'), /Killed/],
    ['Bazel: its downloader cannot resolve the host of rules_cc (`Unknown host: github.com`), analysis aborted (fixtures/recorded/bazel)', new URL('../../fixtures/recorded/bazel/bazel-fetch.log', import.meta.url).pathname, /Unknown host: github\.com/],
  ];
  for (const [what, log, line] of cases) {
    it(what, async () => {
      const { diagnosis: d, trace } = await diagnoseWithTrace({ log });
      expect(d.category).toBe('infra');
      expect(d.findings).toEqual([]);
      expect(d.status).toBe('no-location');
      // the matchers' verdict, not the places read from the evidence blocks (Bazel's `ERROR: …/BUILD:11:10:` under it)
      const last = trace.signals.filter((s) => s.category === 'infra' && s.severity !== 'warning' && s.tool !== 'evidence').at(-1)!;
      expect(last.message).toMatch(line);
    });
  }
});

describe('classify: the order of infra and other failures in the step', () => {
  const sig = (category: Signal['category'], logLine: number, severity: Signal['severity'] = 'error'): Signal => ({
    kind: 'diagnostic', message: `${category} at ${logLine}`, category, severity, weight: 0.8, logLine,
  });
  it('infra then a test failure: test', () => expect(classify([sig('infra', 5), sig('test', 10)])).toBe('test'));
  it('infra then a compile error: compile', () => expect(classify([sig('infra', 5), sig('compile', 10)])).toBe('compile'));
  it('a test failure then infra (the OOM killer ends the run): infra', () => expect(classify([sig('test', 5), sig('infra', 10)])).toBe('infra'));
  it('an infra warning only: not infra', () => expect(classify([sig('infra', 5, 'warning')])).toBe('unknown'));
  it('a resolver failing after the registry is unreachable: infra', () => expect(classify([sig('infra', 5), sig('dependency', 10)])).toBe('infra'));
});
