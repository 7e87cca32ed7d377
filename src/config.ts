import { MAX_CONFIG_BYTES, MAX_CONFIG_NESTING } from './limits.js';
import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { RedlineError } from './errors.js';
import { resolveInside } from './safety/confine.js';

/**
 * `.github/redline.yml`: one zod schema, every field with a default. Only what LLM mode needs for now;
 * other top-level sections are left alone (later features add them), but a typo inside `llm:` is an
 * error, because a misspelt `maxSpendUsd` silently falling back to the default would spend money.
 */

/** A current Claude model id (claude-sonnet-4-5 reaches end of life on 2026-11-30 per the SDK's table). */
export const DEFAULT_MODEL = 'claude-sonnet-5-5';

export const LlmConfigSchema = z
  .object({
    /** Unset: on whenever ANTHROPIC_API_KEY is set. false: never (unless --llm). */
    enabled: z.boolean().optional(),
    model: z.string().min(1).default(DEFAULT_MODEL),
    /** Model turns per diagnosis; each turn is one request. */
    maxTurns: z.int().min(1).max(50).default(8),
    /** Input tokens summed over every request of one diagnosis (cache reads included). */
    maxInputTokens: z.int().min(2_000).max(1_000_000).default(40_000),
    /** Hard stop on the estimated spend of one diagnosis, in US dollars. */
    maxSpendUsd: z.number().positive().max(20).default(0.5),
    /** Budget of the first request (system prompt + tools + repo map + the failure); the fixed part alone is ~2,600. */
    firstTurnTokens: z.int().min(4_000).max(100_000).default(8_000),
    /** Prices used to estimate spend, USD per million tokens (cache writes cost 1.25x, reads 0.1x of input). */
    price: z
      .strictObject({ inputPerMTok: z.number().nonnegative().default(3), outputPerMTok: z.number().nonnegative().default(15) })
      .prefault({}),
  })
  .strict();

const globList = (what: string) => z.array(z.string().min(1, `${what}: a pattern must not be empty`).max(200)).max(100);

/**
 * The GitHub App's sections (read from the BASE branch through the API, so a fork PR cannot change them):
 * whether Redline runs, which jobs, which paths never get a pin, how it speaks, and pushes without a PR.
 */
export const ConfigSchema = z.looseObject({
  llm: LlmConfigSchema.prefault({}),
  /** false: Redline does nothing on this repository (no comment, no check run). */
  enabled: z.boolean().default(true),
  /** Globs of job names to diagnose ("build", "test (*)", or "CI / *" with the workflow name); unset: every job. */
  jobs: globList('jobs').optional(),
  /** Globs of repository paths whose findings are dropped (generated code, vendored files). */
  ignorePaths: globList('ignorePaths').default([]),
  /** review: comment on the PR (default); annotations: the Redline check run and its annotation only; none: the check run only. */
  comment: z.enum(['review', 'annotations', 'none']).default('review'),
  /** Globs of branch names whose failed jobs are diagnosed even without a PR (check run only). Default: none. */
  branches: globList('branches').default([]),
});

export type LlmConfig = z.infer<typeof LlmConfigSchema>;
export type Config = z.infer<typeof ConfigSchema>;

/** The config file could not be used: says which file and what to fix. Doors print it and run without LLM mode. */
export class ConfigError extends RedlineError {
  constructor(
    readonly file: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`${file}: ${message}`, options);
  }
}

/** The defaults, as if the file were empty. */
export function defaultConfig(): Config {
  return ConfigSchema.parse({});
}

/** Validates a parsed YAML value; throws ConfigError naming every bad field. */
export function parseConfig(value: unknown, file = '.github/redline.yml'): Config {
  const r = ConfigSchema.safeParse(value ?? {});
  if (r.success) return r.data;
  const issues = r.error.issues.map((i) => `${i.path.map(String).join('.') || '(top level)'}: ${i.message}`).join('; ');
  throw new ConfigError(file, `invalid configuration: ${issues}`);
}

/** Parses the text of a config file into the validated config; throws ConfigError for bad YAML or values. */
export function parseConfigText(text: string, file = '.github/redline.yml'): Config {
  // Checked before parsing: a deeply nested YAML costs the parser ~1 KB of memory per level.
  if (Buffer.byteLength(text) > MAX_CONFIG_BYTES) throw new ConfigError(file, `is larger than ${MAX_CONFIG_BYTES / 1024} KB; keep it to a few settings`);
  if (flowDepth(text) > MAX_CONFIG_NESTING) throw new ConfigError(file, `nests [ ] or { } deeper than ${MAX_CONFIG_NESTING} levels; a config is a few flat settings`);
  let value: unknown;
  try {
    value = parseYaml(text, { maxAliasCount: 100 });
  } catch (e) {
    throw new ConfigError(file, `is not valid YAML: ${(e as Error).message.split('\n')[0]}`, { cause: e });
  }
  return parseConfig(value, file);
}

const NAMES = ['.github/redline.yml', '.github/redline.yaml'];

/**
 * Reads the repository's config (confined to the checkout: a symlink out is refused), or the defaults
 * when there is no repo or no file. Throws ConfigError on malformed YAML or invalid values.
 */
export async function loadConfig(repo?: string): Promise<Config> {
  if (!repo) return defaultConfig();
  for (const name of NAMES) {
    let text: string;
    try {
      text = await readFile(resolveInside(repo, name), 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw new ConfigError(name, `cannot be read: ${(e as Error).message}`, { cause: e });
    }
    return parseConfigText(text, name);
  }
  return defaultConfig();
}

export type LlmFlag = boolean | undefined;

/**
 * Whether LLM mode runs: `--no-llm` wins, `--llm` needs a key (else a usage error the door reports),
 * otherwise a key turns it on unless the config says `enabled: false`.
 */
export function llmMode(o: { flag: LlmFlag; apiKey: string | undefined; config: Pick<LlmConfig, 'enabled'> }): { on: boolean; error?: string } {
  if (o.flag === false) return { on: false };
  const hasKey = !!o.apiKey && o.apiKey.trim() !== '';
  if (o.flag === true && !hasKey) return { on: false, error: '--llm needs an Anthropic API key: set ANTHROPIC_API_KEY (or pass --no-llm)' };
  if (o.flag === true) return { on: true };
  return { on: hasKey && o.config.enabled !== false };
}

/** Deepest nesting of YAML flow collections ([ ] and { }), counted without parsing (the parser recurses). */
function flowDepth(text: string): number {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 91 || c === 123) max = Math.max(max, ++depth);
    else if ((c === 93 || c === 125) && depth > 0) depth--;
  }
  return max;
}
