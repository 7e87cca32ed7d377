import { globTool } from './glob.js';
import { grepTool } from './grep.js';
import { readTool } from './read.js';
import type { Tool } from './tool.js';

export { globTool, grepTool, readTool };
export { runTool, type Tool, type ToolContext, type ToolResult, type ToolMetadata } from './tool.js';

/** The read-only tools the heuristics and the LLM mode share (DESIGN.md §4). */
export const TOOLS: readonly Tool[] = [grepTool, globTool, readTool];
