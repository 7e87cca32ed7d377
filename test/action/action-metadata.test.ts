/**
 * action.yml as GitHub reads it: a strict YAML parse (the runner refuses what PyYAML and the `yaml`
 * package refuse, e.g. a plain scalar holding `: `), then GitHub's metadata rules for a JavaScript
 * action. Every other YAML file we ship (app.yml, the workflows) gets the same strict parse.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { metadataProblems, type ActionMetadata } from '../helpers/action-metadata-rules.js';
import { ROOT } from './harness.js';

/** Parse errors and warnings of a strict, unique-key parse, as `file:line:col message` lines. */
function strictYamlProblems(file: string): { problems: string[]; value: unknown } {
  const doc = parseDocument(readFileSync(join(ROOT, file), 'utf8'), { strict: true, uniqueKeys: true, prettyErrors: true });
  const problems = [...doc.errors, ...doc.warnings].map((e) => `${file}:${e.linePos?.[0]?.line ?? '?'}:${e.linePos?.[0]?.col ?? '?'} ${e.code}: ${e.message.split('\n')[0]}`);
  return { problems, value: problems.length ? undefined : doc.toJS() };
}

/** What a commit ships (tracked, or new and not ignored), outside the fixtures (recorded repos and hostile input). */
const tracked = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
const committed = new Set(execFileSync('git', ['ls-tree', '-r', '-z', '--name-only', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean));
const shippedYaml = tracked.filter((f) => /\.ya?ml$/.test(f) && !f.startsWith('fixtures/'));

describe('action.yml (GitHub\'s metadata rules)', () => {
  it('parses strictly and breaks none of GitHub\'s rules for a node24 action', () => {
    const { problems, value } = strictYamlProblems('action.yml');
    expect(problems).toEqual([]);
    const meta = value as ActionMetadata;
    expect(metadataProblems(meta, (f) => committed.has(f))).toEqual([]);
    expect(meta.runs?.using).toBe('node24');
  });

  it('the rules catch what GitHub refuses (a description with ": " unquoted, node20, a bad id, a missing main)', () => {
    const bad = parseDocument('name: x\ndescription: y\ninputs:\n  log-file:\n    description: Unset: mode 1\n', { strict: true, uniqueKeys: true });
    expect(bad.errors.length).toBeGreaterThan(0);
    const dup = parseDocument('name: x\nname: y\n', { strict: true, uniqueKeys: true });
    expect(dup.errors.map((e) => e.code)).toContain('DUPLICATE_KEY');
    const problems = metadataProblems(
      { name: 'x', description: 'y', runs: { using: 'node16', main: 'dist/missing.js' }, inputs: { '1st': { description: 'd' }, ok: {} }, outputs: { out: null }, branding: { icon: 'coffee', color: 'pink' } },
      (f) => committed.has(f),
    );
    expect(problems).toEqual([
      'runs.using node16 is not a JavaScript runtime (node20, node24)',
      'runs.main dist/missing.js is not in the committed tree',
      'inputs.1st: the id does not match /^[a-zA-Z_][a-zA-Z0-9_-]*$/',
      'inputs.ok: description is missing',
      'outputs.out: description is missing',
      'branding.color pink is not one of white, black, yellow, blue, green, orange, red, purple, gray-dark',
      'branding.icon coffee is not a supported icon',
    ]);
  });

  it('every input the Action reads is declared, and every declared input is read', () => {
    const meta = strictYamlProblems('action.yml').value as ActionMetadata;
    const context = readFileSync(join(ROOT, 'src/action-steps/context.ts'), 'utf8');
    const read = new Set([...context.matchAll(/input\(env, '([\w-]+)'\)/g)].map((m) => m[1]!));
    expect([...read].sort()).toEqual(Object.keys(meta.inputs ?? {}).sort());
  });
});

describe('every shipped YAML file parses strictly', () => {
  it('finds action.yml, app.yml and the workflows', () => {
    expect(shippedYaml).toEqual(expect.arrayContaining(['action.yml', 'app.yml', '.github/workflows/ci.yml']));
  });
  it.each(shippedYaml)('%s', (file) => {
    expect(strictYamlProblems(file).problems).toEqual([]);
  });
});
