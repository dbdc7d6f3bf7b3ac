import { positiveInt } from "../../../shared/positive-int.ts";

/**
 * Bounds on the tools a person defines and on what a tool run may produce, each with a default and a
 * build-time variable (`VITE_MAX_TOOLS=… npm start`), listed in the docs' limits table.
 */
export interface ToolLimits {
  /** Tools one session may have. */
  toolsPerSession: number;
  /** A parameters schema, as JSON. */
  schemaBytes: number;
  /** How deeply a parameters schema may nest. */
  schemaDepth: number;
  /** A description. */
  descriptionChars: number;
  /** A fixed result, a template, a typed result, and what a template produces. */
  resultChars: number;
  /**
   * Tool calls one run may make in a row before it is stopped (a model that keeps calling tools would
   * otherwise run, and spend, without end). The page's setting starts here.
   */
  toolCallsPerRun: number;
}

export const DEFAULT_TOOL_LIMITS: ToolLimits = {
  toolsPerSession: 64,
  schemaBytes: 64 * 1024,
  schemaDepth: 32,
  descriptionChars: 4_000,
  resultChars: 200_000,
  toolCallsPerRun: 50,
};

export function toolLimits(env: Record<string, unknown>): ToolLimits {
  return {
    toolsPerSession: positiveInt(env.VITE_MAX_TOOLS) ?? DEFAULT_TOOL_LIMITS.toolsPerSession,
    schemaBytes: positiveInt(env.VITE_TOOL_SCHEMA_MAX_BYTES) ?? DEFAULT_TOOL_LIMITS.schemaBytes,
    schemaDepth: DEFAULT_TOOL_LIMITS.schemaDepth,
    descriptionChars: DEFAULT_TOOL_LIMITS.descriptionChars,
    resultChars: positiveInt(env.VITE_TOOL_RESULT_MAX_CHARS) ?? DEFAULT_TOOL_LIMITS.resultChars,
    toolCallsPerRun: positiveInt(env.VITE_MAX_TOOL_CALLS_PER_RUN) ?? DEFAULT_TOOL_LIMITS.toolCallsPerRun,
  };
}

export const TOOL_LIMITS = toolLimits(import.meta.env ?? {});
