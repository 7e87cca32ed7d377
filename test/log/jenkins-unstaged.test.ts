import { describe, expect, it } from 'vitest';
import { findFailingStep } from '../../src/log/find-failing-step.js';

const toLines = (texts: string[]) => texts.map((text, i) => ({ n: i + 1, text }));

// The shape of erouresvives/kube-exercises' console (hw-05): a declarative pipeline with `agent { docker … }`
// pulls its image after the checkout stage closed and before any stage of its own opened.
const dockerAgent = [
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
  '+ docker inspect -f . node:alpine',
  '/var/jenkins_home/workspace/P@tmp/durable-9d3120cd/script.sh: 1: docker: not found',
  '[Pipeline] }',
  '[Pipeline] // withEnv',
  '[Pipeline] }',
  '[Pipeline] // node',
  '[Pipeline] End of Pipeline',
  'ERROR: script returned exit code 127',
  'Finished: FAILURE',
];

describe('Jenkins Pipeline: a command that failed outside every stage', () => {
  it('is the failing step, not the checkout stage that closed before it', () => {
    const lines = toLines(dockerAgent);
    const layout = findFailingStep(lines, [], lines.length);
    expect(layout.format).toBe('jenkins');
    expect(layout.failing).toMatchObject({ startLine: 14, endLine: 20, exitCode: 127 });
  });

  it('a command outside stages before a stage that then fails leaves that stage the failing one', () => {
    const lines = toLines([
      ...dockerAgent.slice(0, 13),
      '[Pipeline] sh',
      '+ docker inspect -f . node:alpine',
      '[Pipeline] stage',
      '[Pipeline] { (Test)',
      '[Pipeline] sh',
      '+ npm test',
      'npm ERR! Test failed.',
      '[Pipeline] }',
      '[Pipeline] // stage',
      '[Pipeline] End of Pipeline',
      'ERROR: script returned exit code 1',
      'Finished: FAILURE',
    ]);
    const layout = findFailingStep(lines, [], lines.length);
    expect(layout.failing).toMatchObject({ name: 'Test', startLine: 17 });
  });
});
