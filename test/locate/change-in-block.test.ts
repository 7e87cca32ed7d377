import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM helper shared with the benchmark
import { evaluateCase } from '../../scripts/eval-cases.mjs';
import { diagnoseWithTrace } from '../../src/diagnose.js';
import { parseUnifiedDiff } from '../../src/repo/diff.js';
import { changeInBlockBelow } from '../../src/locate/change-in-block.js';

const top = async (c: string, noBase = false) => {
  const r = await evaluateCase(c, diagnoseWithTrace, { noBase });
  const f = r.diagnosis.findings[0];
  return f ? `${f.file}:${f.line}` : r.diagnosis.status;
};

describe('a report on the head of a block the PR changed inside (recorded golden cases)', () => {
  it("Ansible's `conflicting action statements: copy, mode` at the task's line 9 is the `mode:` added at line 17", async () => {
    expect(await top('ansible-syntax-check-misindented-mode-pypi-proxy')).toBe('playbooks/pypi_proxy_prepare.yml:17');
  });

  it("bean-check's `Transaction does not balance` at the date line 172 is the posting changed at line 174", async () => {
    expect(await top('bean-check-unbalanced-salary-transaction')).toBe('books/basic.beancount:174');
    // without the diff nothing says which posting: the report's own line
    expect(await top('bean-check-unbalanced-salary-transaction', true)).toBe('books/basic.beancount:172');
  });

  it("sass-lint's stylish `Please check validity of the block starting from line #1` (Fatal) is the `}` deleted after line 18, a syntax fault", async () => {
    const r = await evaluateCase('sass-lint-unclosed-hover-focus-block-bootstrap-close', diagnoseWithTrace, {});
    expect(r.diagnosis.category).toBe('compile');
    expect(`${r.diagnosis.findings[0]?.file}:${r.diagnosis.findings[0]?.line}`).toBe('scss/_close.scss:18');
    // without the diff nothing says where in the block: the block's head, as reported
    expect(await top('sass-lint-unclosed-hover-focus-block-bootstrap-close', true)).toBe('scss/_close.scss:1');
  });

  const CASE = 'fixtures/logs/ansible-syntax-check-misindented-mode-pypi-proxy';
  const diff = parseUnifiedDiff(readFileSync(new URL(`../../${CASE}/head.patch`, import.meta.url), 'utf8'));
  // the head tree: base plus the one added line
  const base = readFileSync(new URL(`../../${CASE}/base/playbooks/pypi_proxy_prepare.yml`, import.meta.url), 'utf8').split('\n');
  const head = [...base.slice(0, 16), '      mode: "0644"', ...base.slice(16)];
  const file = 'playbooks/pypi_proxy_prepare.yml';

  it('is the block the reported line heads, not the next one, and never the reported line itself when changed', () => {
    expect(changeInBlockBelow(diff, head, file, 9, () => false)).toBe(17);
    // line 18 heads the next task: the change at 17 is above it, not inside
    expect(changeInBlockBelow(diff, head, file, 18, () => false)).toBeUndefined();
    // a line inside the block (indented deeper than 17) heads no block that holds 17
    expect(changeInBlockBelow(diff, head, file, 16, () => false)).toBeUndefined();
    expect(changeInBlockBelow(diff, head, file, 17, () => true)).toBeUndefined();
  });

  it("a change that only deleted lines is placed on the line before the gap (git's -U0 `+18,0`): the `}` the PR took out of `.close`", () => {
    const sass = 'fixtures/logs/sass-lint-unclosed-hover-focus-block-bootstrap-close';
    const baseText = readFileSync(new URL(`../../${sass}/base/scss/_close.scss`, import.meta.url), 'utf8');
    const dir = mkdtempSync(join(tmpdir(), 'redline-block-'));
    writeFileSync(join(dir, 'a.scss'), baseText);
    // the head tree: base with the PR's patch applied by git itself
    execFileSync('git', ['init', '-q'], { cwd: dir });
    execFileSync('mkdir', ['-p', 'scss'], { cwd: dir });
    writeFileSync(join(dir, 'scss/_close.scss'), baseText);
    execFileSync('git', ['apply', new URL(`../../${sass}/head.patch`, import.meta.url).pathname], { cwd: dir });
    const headText = readFileSync(join(dir, 'scss/_close.scss'), 'utf8');
    let patch = '';
    try {
      execFileSync('git', ['diff', '--no-index', '--no-color', '-U0', 'a.scss', 'scss/_close.scss'], { cwd: dir });
    } catch (e) {
      patch = String((e as { stdout: Buffer }).stdout); // exit 1: the files differ
    }
    const d = parseUnifiedDiff(patch.replace(/^\+\+\+ b\/.*$/m, '+++ b/scss/_close.scss'));
    expect(changeInBlockBelow(d, headText.split('\n'), 'scss/_close.scss', 1, () => false)).toBe(18);
    // the block that line 16 heads (`&:not(:disabled)…`) holds the gap too; line 11's (`@include hover()`) does not
    expect(changeInBlockBelow(d, headText.split('\n'), 'scss/_close.scss', 16, () => false)).toBe(18);
    expect(changeInBlockBelow(d, headText.split('\n'), 'scss/_close.scss', 11, () => false)).toBeUndefined();
  });
});
