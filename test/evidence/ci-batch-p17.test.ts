import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/diagnose.js';
import { wildLog, wildLineNo } from '../helpers/wild.js';

/**
 * Real failed Jenkins, GitLab and Azure Pipelines logs of issue 14's CI batch (fixtures/wild/, each
 * label.json names the source): the evidence and category rules they showed, one shape each.
 */
const evidenceOf = async (id: string) => {
  const d = await diagnose({ log: wildLog(id) });
  return { d, lines: d.evidence.map((e) => e.line) };
};

describe('CI batch p17: evidence and category', () => {
  it("git's `remote:` lines before its `fatal:` are the server's reason; a 403 from git is credentials, infra", async () => {
    const id = 'azure-gdp-replatform-git-push-403';
    const { d, lines } = await evidenceOf(id);
    expect(lines).toEqual([1, 2, 3]);
    expect(d.category).toBe('infra');
  });

  it("bash's two-line syntax error (the report, then the code at the same `file: line N:`) is one block", async () => {
    const id = 'jenkins-freestyle-autoarchive-shell-syntax-error';
    const { d, lines } = await evidenceOf(id);
    expect(lines).toEqual([1, 2]);
    expect(d.category).toBe('compile');
  });

  it("a script's wait that gave up after a while ends the step (infra); rm's `No such file` for a file already gone is not evidence", async () => {
    const id = 'jenkins-freestyle-oup-atlas-deploy-tag-timeout';
    const { d, lines } = await evidenceOf(id);
    expect(lines[0]).toBe(wildLineNo(id, /since 20 minutes hence exiting/));
    expect(lines).not.toContain(wildLineNo(id, /cannot remove .unhealthy\.txt/));
    expect(d.category).toBe('infra');
  });

  it("a Jenkinsfile that did not compile is the pipeline script's compile error, not the checkout's infra", async () => {
    const id = 'jenkins-pipeline-ansible-ex-duplicate-stage-name';
    const { d, lines } = await evidenceOf(id);
    expect(lines[0]).toBe(wildLineNo(id, /MultipleCompilationErrorsException: startup failed/));
    expect(d.category).toBe('compile');
  });

  it('a GitLab job that failed fetching its sources or preparing its environment is infra, quoted at the runner-section error', async () => {
    const godot = await evidenceOf('gitlab-godot-ci-shallow-file-changed');
    expect(godot.lines).toEqual([wildLineNo('gitlab-godot-ci-shallow-file-changed', /^fatal: shallow file has changed/)]);
    expect(godot.d.category).toBe('infra');
    const prep = await evidenceOf('gitlab-terraform-runner-prepare-environment-255');
    expect(prep.lines).toEqual([10]);
    expect(prep.d.category).toBe('infra');
  });

  it("Jenkins' compiler report on the Jenkinsfile (`WorkflowScript: 11: …`) is quoted under `startup failed:` across the reporter's blank lines", async () => {
    const id = 'jenkins-pipeline-simple-java-maven-app-expected-a-step';
    const { d, lines } = await evidenceOf(id);
    expect(lines).toEqual([3, 5, 7]);
    expect(d.category).toBe('compile');
  });

  it("Maven's `there is no POM in this directory` is the build's own file missing: compile", async () => {
    const id = 'jenkins-pipeline-cloudbees-examples-maven-no-pom';
    const { d, lines } = await evidenceOf(id);
    expect(lines).toEqual([wildLineNo(id, /no POM in this directory/)]);
    expect(d.category).toBe('compile');
  });

  it('a report that quotes an exit status inside its message and goes on (`…tar file(exit status 1): there might not be enough IDs…`) is evidence, not an exit echo', async () => {
    const id = 'jenkins-pipeline-podman-rootless-lchown';
    const { d, lines } = await evidenceOf(id);
    expect(lines).toContain(wildLineNo(id, /^Error: error creating build container/));
    expect(d.failingStep).toMatchObject({ name: 'Build', startLine: 48, endLine: 162 });
  });
});
