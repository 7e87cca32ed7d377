import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { diagnose } from '../../src/diagnose.js';
import { errorScore } from '../../src/evidence/vocabulary.js';

/**
 * Issue 14's eighth round: shapes of real Actions and Jenkins logs of small projects that the corpus had not
 * seen (lines quoted from lethanhkha/our-fund-app's and erouresvives/kube-exercises' committed logs, cut short).
 */
function logOf(lines: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'redline-unseen-'));
  const f = join(dir, 'log.txt');
  writeFileSync(f, lines.join('\n') + '\n');
  return f;
}

const turbopackReport = (n: number) => [
  `./app/page${n}.tsx:4:1`,
  `Module not found: Can't resolve '@/components/ui/Card${n}'`,
  `  2 | import React, { useState } from 'react';`,
  `> 4 | import { Card${n} } from '@/components/ui/Card${n}';`,
  '    | ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^',
  '',
  `Import map: aliased to relative './components/ui/Card${n}' inside of [project]/`,
  '',
  'https://nextjs.org/docs/messages/module-not-found',
  '',
];

describe('an exception whose message is too long for its frames to reach', () => {
  it("quotes the message's header (`Error: Turbopack build failed with N errors:`), not the frames printed after the reports", async () => {
    const reports = [1, 2, 3, 4].flatMap(turbopackReport);
    const frames = [1, 2, 3, 4].flatMap((n) => [`    at <unknown> (./app/page${n}.tsx:4:1)`, '    at <unknown> (https://nextjs.org/docs/messages/module-not-found)']);
    const log = logOf([
      '##[group]Run npm run build',
      'npm run build',
      '##[endgroup]',
      '',
      '> our-fund-app@0.1.0 build',
      '> next build',
      '',
      '  Creating an optimized production build ...',
      '',
      '> Build error occurred',
      'Error: Turbopack build failed with 4 errors:',
      ...reports,
      ...frames,
      '##[error]Process completed with exit code 1.',
    ]);
    const d = await diagnose({ log });
    const quoted = d.evidence.map((e) => e.text);
    expect(quoted.some((t) => t.startsWith('Error: Turbopack build failed with 4 errors:'))).toBe(true);
    expect(quoted[0]).not.toMatch(/^\s+at /);
  });
});

describe("dash's missing command", () => {
  it('says failure as strongly as bash’s `command not found`', () => {
    const dash = '/var/jenkins_home/workspace/P@tmp/durable-8824e008/script.sh: 1: /var/jenkins_home/workspace/P@tmp/durable-8824e008/script.sh: docker: not found';
    expect(errorScore(dash)).toBeGreaterThanOrEqual(errorScore('bash: docker: command not found'));
    expect(errorScore('/bin/sh: 1: docker: not found')).toBeGreaterThanOrEqual(errorScore('bash: docker: command not found'));
  });

  it('is quoted when a Jenkins pipeline fails on it outside every stage', async () => {
    const log = logOf([
      'Started by user admin',
      '[Pipeline] Start of Pipeline',
      '[Pipeline] node',
      '[Pipeline] {',
      '[Pipeline] stage',
      '[Pipeline] { (Declarative: Checkout SCM)',
      '[Pipeline] checkout',
      'Commit message: "Update Jenkinsfile"',
      '[Pipeline] }',
      '[Pipeline] // stage',
      '[Pipeline] withEnv',
      '[Pipeline] {',
      '[Pipeline] isUnix',
      '[Pipeline] sh',
      '+ docker pull node:alpine',
      '/var/jenkins_home/workspace/P@tmp/durable-8824e008/script.sh: 1: /var/jenkins_home/workspace/P@tmp/durable-8824e008/script.sh: docker: not found',
      '[Pipeline] }',
      '[Pipeline] // withEnv',
      '[Pipeline] }',
      '[Pipeline] // node',
      '[Pipeline] End of Pipeline',
      'ERROR: script returned exit code 127',
      'Finished: FAILURE',
    ]);
    const d = await diagnose({ log });
    expect(d.evidence[0]?.text).toMatch(/docker: not found$/);
    expect(d.evidence.some((e) => e.text.startsWith('[Pipeline]'))).toBe(false);
  });
});

describe('a delivery script whose `java -jar` finds no jar (fixtures/wild/jenkins-pipeline-rakshit-maven-deliver-jarfile)', () => {
  it('is a compile failure quoted by the launcher’s error, within the Deliver stage', async () => {
    const d = await diagnose({ log: new URL('../../fixtures/wild/jenkins-pipeline-rakshit-maven-deliver-jarfile/log.txt', import.meta.url).pathname });
    expect(d.failingStep?.name).toBe('Deliver');
    expect(d.category).toBe('compile');
    expect(d.evidence.map((e) => e.text)).toContain('Error: Unable to access jarfile target\\[ERROR]');
  });
});

