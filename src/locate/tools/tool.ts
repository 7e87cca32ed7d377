import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { OutsideWorkspaceError } from '../../safety/confine.js';

/** What every tool run gets: where the repository is, and where over-long output can be saved. */
export interface ToolContext {
  /** The repository checkout; every path a tool touches is resolved inside it. */
  root: string;
  /**
   * Saves the full, uncut output of a call (to the artifact folder) and returns where it went, for the
   * "cut" message. Optional: without it the output is only cut.
   */
  spill?: (name: string, content: string) => Promise<string>;
  /** Cancels a running tool (kills its rg). */
  signal?: AbortSignal;
}

export interface ToolMetadata {
  /** True when the output was cut at a bound. */
  truncated: boolean;
  /** Set when the call failed (bad arguments, path outside, missing file...): `output` says what to do. */
  error?: string;
  [key: string]: unknown;
}

export interface ToolResult {
  /** A one-line label for logs and traces, e.g. `grep "foo" in src`. */
  title: string;
  /** The text handed back to the model (or read by the heuristics); always bounded. */
  output: string;
  metadata: ToolMetadata;
}

/** One bounded, read-only tool (after opencode's `tool/`). */
export interface Tool<P extends z.ZodType = z.ZodType> {
  id: string;
  /** Model-facing description, loaded from the tool's `.txt` file. */
  description: string;
  parameters: P;
  execute(args: z.infer<P>, ctx: ToolContext): Promise<ToolResult>;
}

/** Loads a tool description next to the module (`new URL('./grep.txt', import.meta.url)`): works from src and dist. */
export function loadDescription(url: URL): string {
  return readFileSync(url, 'utf8').trim();
}

/** A short human summary of a tool's parameters, for error messages: `pattern: string, path?: string`. */
export function describeParameters(parameters: z.ZodType): string {
  try {
    const schema = z.toJSONSchema(parameters, { io: 'input', unrepresentable: 'any' }) as {
      properties?: Record<string, { type?: string | string[] }>;
      required?: string[];
    };
    const required = new Set(schema.required ?? []);
    return Object.entries(schema.properties ?? {})
      .map(([k, v]) => `${k}${required.has(k) ? '' : '?'}: ${Array.isArray(v.type) ? v.type.join(' | ') : (v.type ?? 'any')}`)
      .join(', ');
  } catch {
    return '';
  }
}

function formatIssues(error: z.ZodError): string {
  return error.issues
    .map((i) => `- ${i.path.length ? i.path.map(String).join('.') : '(arguments)'}: ${i.message}`)
    .join('\n');
}

/** A failed call as a result: the model reads `output` and tries again. */
export function errorResult(title: string, message: string): ToolResult {
  return { title, output: message, metadata: { truncated: false, error: message.split('\n')[0] ?? message } };
}

/**
 * Validates raw arguments (as a model sends them) and runs the tool. Never throws for bad input:
 * invalid arguments, a path outside the repository, or a failing run become a ToolResult whose
 * output says what was wrong and how to call the tool instead.
 */
export async function runTool<P extends z.ZodType>(tool: Tool<P>, rawArgs: unknown, ctx: ToolContext): Promise<ToolResult> {
  let args = rawArgs;
  if (typeof args === 'string') {
    // Some models send the arguments as a JSON string.
    try {
      args = JSON.parse(args);
    } catch {
      /* reported below */
    }
  }
  const parsed = tool.parameters.safeParse(args ?? {});
  if (!parsed.success) {
    const expected = describeParameters(tool.parameters);
    return errorResult(
      `${tool.id}: invalid arguments`,
      `Invalid arguments for tool "${tool.id}":\n${formatIssues(parsed.error)}\n` +
        (expected ? `Expected an object with { ${expected} } (a "?" marks an optional field). ` : '') +
        'Fix the arguments and call the tool again.',
    );
  }
  try {
    return await tool.execute(parsed.data as z.infer<P>, ctx);
  } catch (e) {
    if (e instanceof OutsideWorkspaceError) return errorResult(`${tool.id}: path outside the repository`, e.message);
    const message = e instanceof Error ? e.message : String(e);
    return errorResult(`${tool.id}: failed`, `Tool "${tool.id}" failed: ${message}`);
  }
}
