import { afterEach, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, DEFAULT_MODEL, defaultConfig, llmMode, loadConfig } from '../../src/config.js';
import { runCli } from '../../src/doors/cli.js';

const dirs: string[] = [];
function repoWith(yml?: string): string {
  const d = mkdtempSync(join(tmpdir(), 'redline-config-'));
  dirs.push(d);
  if (yml !== undefined) {
    mkdirSync(join(d, '.github'));
    writeFileSync(join(d, '.github/redline.yml'), yml);
  }
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('config (.github/redline.yml)', () => {
  it('has defaults for everything LLM mode needs', async () => {
    expect(defaultConfig().llm).toEqual({ model: DEFAULT_MODEL, maxTurns: 8, maxInputTokens: 40_000, maxSpendUsd: 0.5, firstTurnTokens: 8_000, price: { inputPerMTok: 3, outputPerMTok: 15 } });
    expect(await loadConfig(repoWith())).toEqual(defaultConfig());
    expect(await loadConfig()).toEqual(defaultConfig());
  });

  it('reads the llm section and keeps other sections for later features', async () => {
    const c = await loadConfig(repoWith('llm:\n  model: claude-haiku-5-5\n  maxTurns: 4\nreviews:\n  enabled: true\n'));
    expect(c.llm).toMatchObject({ model: 'claude-haiku-5-5', maxTurns: 4, maxInputTokens: 40_000 });
  });

  it('a malformed file is a ConfigError that names the file and the field', async () => {
    await expect(loadConfig(repoWith('llm: [oops'))).rejects.toThrow(ConfigError);
    await expect(loadConfig(repoWith('llm: [oops'))).rejects.toThrow(/\.github\/redline\.yml: is not valid YAML/);
    await expect(loadConfig(repoWith('llm:\n  maxTurns: 0\n'))).rejects.toThrow(/llm\.maxTurns: /);
    await expect(loadConfig(repoWith('llm:\n  maxSpendUSD: 3\n'))).rejects.toThrow(/maxSpendUSD/);
  });

  it('a config symlinked out of the checkout is refused', async () => {
    const outside = repoWith();
    writeFileSync(join(outside, 'evil.yml'), 'llm:\n  maxSpendUsd: 20\n');
    const repo = repoWith();
    mkdirSync(join(repo, '.github'));
    symlinkSync(join(outside, 'evil.yml'), join(repo, '.github/redline.yml'));
    await expect(loadConfig(repo)).rejects.toThrow(/outside the repository/);
  });

  it('llmMode: --no-llm wins, --llm needs a key, a key turns it on unless enabled: false', () => {
    expect(llmMode({ flag: false, apiKey: 'k', config: {} })).toEqual({ on: false });
    expect(llmMode({ flag: true, apiKey: undefined, config: {} }).error).toMatch(/set ANTHROPIC_API_KEY/);
    expect(llmMode({ flag: true, apiKey: 'k', config: { enabled: false } })).toEqual({ on: true });
    expect(llmMode({ flag: undefined, apiKey: 'k', config: {} })).toEqual({ on: true });
    expect(llmMode({ flag: undefined, apiKey: 'k', config: { enabled: false } })).toEqual({ on: false });
    expect(llmMode({ flag: undefined, apiKey: undefined, config: { enabled: true } })).toEqual({ on: false });
  });
});

describe('CLI flags', () => {
  const LOG = new URL('../../fixtures/logs/vitest-wrong-operator/log.txt', import.meta.url).pathname;
  const io = (env: NodeJS.ProcessEnv) => {
    const out = { stdout: '', stderr: '' };
    const w = (k: 'stdout' | 'stderr') => ({ write: (s: string) => ((out[k] += s), true) }) as unknown as NodeJS.WritableStream;
    return { out, io: { stdout: w('stdout'), stderr: w('stderr'), version: 'test', env } };
  };

  it('--llm without a key is a usage error that says to set it', async () => {
    const t = io({});
    expect(await runCli(['diagnose', '--log', LOG, '--repo', repoWith(), '--llm'], t.io)).toBe(2);
    expect(t.out.stderr).toMatch(/set ANTHROPIC_API_KEY/);
  });

  it('--llm and --no-llm together, or --llm without --repo, are usage errors', async () => {
    expect(await runCli(['diagnose', '--log', LOG, '--llm', '--no-llm'], io({ ANTHROPIC_API_KEY: 'k' }).io)).toBe(2);
    expect(await runCli(['diagnose', '--log', LOG, '--llm'], io({ ANTHROPIC_API_KEY: 'k' }).io)).toBe(2);
  });

  it('a bad config file is reported and the diagnosis runs without LLM mode', async () => {
    const t = io({ ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' });
    expect(await runCli(['diagnose', '--log', LOG, '--repo', repoWith('llm:\n  maxTurns: many\n')], t.io)).toBe(0);
    expect(t.out.stderr).toMatch(/redline\.yml: invalid configuration: llm\.maxTurns.*running without LLM mode/);
    expect(t.out.stderr).not.toMatch(/redline: LLM/);
  });

  it('--no-llm never calls a model even with a key', async () => {
    const t = io({ ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' });
    expect(await runCli(['diagnose', '--log', LOG, '--repo', repoWith(), '--no-llm'], t.io)).toBe(0);
    expect(t.out.stderr).toBe('');
  });
});
