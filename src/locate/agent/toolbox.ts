import type Anthropic from '@anthropic-ai/sdk';
import { z } from 'zod';
import type { Workspace } from '../../repo/workspace.js';
import type { FileTags } from '../../repo/map/types.js';
import { redactSecretsDeep } from '../../safety/redact.js';
import { grepTool } from '../tools/grep.js';
import { globTool } from '../tools/glob.js';
import { readTool } from '../tools/read.js';
import { runTool, type Tool, type ToolContext } from '../tools/tool.js';
import { spillName, truncateOutput } from '../tools/truncate.js';
import { symbolsTool } from './symbols-tool.js';
import { reportDescription, reportParameters, verifyReport, isVerified, type VerifiedReport } from './report-tool.js';
import { AGENT_READ_DEFAULT_LINES, AGENT_TOOL_RESULT_BYTES } from './bounds.js';

/** What one tool call gives back to the loop. */
export interface ToolOutcome {
  /** Redacted, bounded text for the tool_result block. */
  output: string;
  isError: boolean;
  /** Set when a `report` passed verification. */
  report?: VerifiedReport;
  title: string;
}

export interface Toolbox {
  /** The tool definitions sent with every request (stable order: part of the cached prefix). */
  definitions: Anthropic.Tool[];
  call(name: string, input: unknown): Promise<ToolOutcome>;
}

const AGENT_NOTE = `\n\nIn this investigation one result is cut at ${AGENT_TOOL_RESULT_BYTES / 1024} KB; narrow the call when it is.`;
const READ_NOTE = `\n\nIn this investigation read returns ${AGENT_READ_DEFAULT_LINES} lines when limit is not given.`;

function schemaOf(p: z.ZodType): Anthropic.Tool.InputSchema {
  const s = z.toJSONSchema(p, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete s.$schema; // the API takes the schema object itself
  return s as Anthropic.Tool.InputSchema;
}

/**
 * The model's tools: grep, glob, read (the heuristics' own bounded tools), symbols (the tag index) and
 * report. No shell, no network, no writes. Every path goes through resolveInside (in the tools), every
 * output is cut to AGENT_TOOL_RESULT_BYTES (the rest spilled) and redacted before it is sent.
 */
export function makeToolbox(o: { ws: Workspace; tags: ReadonlyMap<string, FileTags>; spill?: ToolContext['spill'] }): Toolbox {
  const ctx: ToolContext = { root: o.ws.root, ...(o.spill ? { spill: o.spill } : {}) };
  const tools: Tool[] = [grepTool, globTool, readTool, symbolsTool(o.tags)] as Tool[];
  const definitions: Anthropic.Tool[] = [
    ...tools.map((t) => ({
      name: t.id,
      description: t.description + (t.id === 'read' ? READ_NOTE : '') + (t.id === 'symbols' ? '' : AGENT_NOTE),
      input_schema: schemaOf(t.parameters),
    })),
    { name: 'report', description: reportDescription, input_schema: schemaOf(reportParameters) },
  ];

  async function finish(title: string, text: string, isError: boolean, args: unknown): Promise<ToolOutcome> {
    const cut = await truncateOutput(
      text,
      { maxBytes: AGENT_TOOL_RESULT_BYTES, hint: 'Narrow the call (a path, an include glob, offset and limit).', spillName: spillName(title.split(' ')[0] ?? 'tool', args) },
      ctx,
    );
    return { title, output: (await redactSecretsDeep(cut.output)).text, isError };
  }

  return {
    definitions,
    async call(name, input) {
      if (name === 'report') {
        const parsed = reportParameters.safeParse(input);
        if (!parsed.success) {
          const issues = parsed.error.issues.map((i) => `- ${i.path.join('.') || '(arguments)'}: ${i.message}`).join('\n');
          return finish('report: invalid arguments', `Invalid arguments for tool "report":\n${issues}\nFix them and call report again.`, true, input);
        }
        const r = verifyReport(parsed.data, o.ws);
        if (!isVerified(r)) return finish(r.title, r.output, true, input);
        return { title: `report ${r.file}:${r.line}`, output: `Verified: ${r.file}:${r.line} holds the cited code. The report is accepted.`, isError: false, report: r };
      }
      const tool = tools.find((t) => t.id === name);
      if (!tool) return finish(`${name}: unknown tool`, `There is no tool "${name}". The tools are: ${definitions.map((d) => d.name).join(', ')}.`, true, input);
      let args = input;
      if (name === 'read' && args && typeof args === 'object' && !('limit' in args)) args = { ...args, limit: AGENT_READ_DEFAULT_LINES };
      const res = await runTool(tool, args, ctx);
      return finish(res.title, res.output, res.metadata.error !== undefined, input);
    },
  };
}
