import type { Tool } from "@earendil-works/pi-ai";
import { isObject } from "../../../shared/is-object.ts";
import { nestsDeeperThan } from "../../messages/nesting.ts";
import { CALCULATE, CURRENT_TIME, SAVE_NOTE, type DemoToolDeclaration } from "./demo-tool-declarations.ts";
import { TOOL_LIMITS } from "./tool-limits.ts";

/**
 * The tools of a session, as its settings keep them: what the model is told (name, description, parameters
 * as JSON Schema) and where a call's result comes from. The playground's three demo tools are definitions
 * like any other, whose result is computed in the browser; a person adds their own, whose result is fixed
 * JSON, a template over the call's arguments, or typed by them while the run waits ("ask me").
 */

/** The browser functions the demo tools run: the time, the calculator, the notes store. */
export const BUILTIN_TOOLS = ["current_time", "calculate", "save_note"] as const;
export type BuiltinTool = (typeof BUILTIN_TOOLS)[number];

export type ToolResultSource =
  | { kind: "builtin"; builtin: BuiltinTool }
  /** The same JSON text for every call. */
  | { kind: "fixed"; json: string }
  /** Text with `{{path}}` replaced by the call's argument at that path (`{{$args}}`: all of them, as JSON). */
  | { kind: "template"; template: string }
  /** The run waits, as for an approval, until a person types the result. */
  | { kind: "ask" };

export type ToolSourceKind = ToolResultSource["kind"];

export interface ToolDefinition {
  name: string;
  description: string;
  /** A JSON Schema of type "object" (checked against JSON Schema's meta-schema when it is defined). */
  parameters: Record<string, unknown>;
  source: ToolResultSource;
  /** Switched off, the model is not offered it (pi declares it removed before the next call). */
  enabled: boolean;
  /** A short name for menus (the demo tools have one). */
  label?: string;
}

function builtin(declaration: DemoToolDeclaration, name: BuiltinTool): ToolDefinition {
  return {
    name: declaration.name,
    description: declaration.description,
    parameters: declaration.parameters as Record<string, unknown>,
    source: { kind: "builtin", builtin: name },
    enabled: true,
    label: declaration.label,
  };
}

/** A new session's tools: the three demo tools, declared exactly as sessions always declared them. */
export function defaultToolDefinitions(): ToolDefinition[] {
  return [
    builtin(CURRENT_TIME, "current_time"),
    builtin(CALCULATE, "calculate"),
    builtin(SAVE_NOTE, "save_note"),
  ];
}

/** What the model is told of a tool: pi's declaration (name, description, parameters). */
export function declarationOf(definition: ToolDefinition): Tool {
  return {
    name: definition.name,
    description: definition.description,
    parameters: structuredClone(definition.parameters) as Tool["parameters"],
  };
}

/** The declarations of the tools switched on, in order: what the Agent offers the model. */
export function enabledDeclarations(definitions: readonly ToolDefinition[]): Tool[] {
  return definitions.filter((definition) => definition.enabled).map(declarationOf);
}

/**
 * Names every provider takes (OpenAI's and Anthropic's are the strictest: letters, digits, `_` and `-`, at
 * most 64), starting with a letter or `_`; never a name every JavaScript object already has
 * (`__proto__`, `constructor`), which would collide with the places tools are looked up by name.
 */
const NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

export function toolNameProblem(name: string, others: readonly string[]): string | undefined {
  if (name.length === 0) return "A tool needs a name.";
  if (!NAME_PATTERN.test(name))
    return `"${clip(name)}" cannot be a tool name: use letters, digits, "_" and "-" (at most 64, starting with a letter or "_"), as providers require.`;
  if (name in Object.prototype) return `"${name}" is a name every JavaScript object has; choose another.`;
  if (others.includes(name)) return `This session already has a tool named "${name}".`;
  return undefined;
}

export function descriptionProblem(description: string): string | undefined {
  if (description.length > TOOL_LIMITS.descriptionChars)
    return `The description is ${description.length.toLocaleString("en-US")} characters; at most ${TOOL_LIMITS.descriptionChars.toLocaleString("en-US")} are kept.`;
  return undefined;
}

/** Why a result source cannot be used; undefined when it can. The fixed JSON must parse. */
export function sourceProblem(source: ToolResultSource): string | undefined {
  switch (source.kind) {
    case "builtin":
      return (BUILTIN_TOOLS as readonly string[]).includes(source.builtin)
        ? undefined
        : `"${clip(source.builtin)}" is not one of the browser's tools (${BUILTIN_TOOLS.join(", ")}).`;
    case "fixed": {
      if (source.json.length > TOOL_LIMITS.resultChars)
        return `The fixed result is longer than ${TOOL_LIMITS.resultChars.toLocaleString("en-US")} characters.`;
      try {
        JSON.parse(source.json);
        return undefined;
      } catch (error) {
        return `The fixed result is not JSON: ${(error as Error).message}`;
      }
    }
    case "template":
      return source.template.length > TOOL_LIMITS.resultChars
        ? `The template is longer than ${TOOL_LIMITS.resultChars.toLocaleString("en-US")} characters.`
        : undefined;
    case "ask":
      return undefined;
  }
}

function clip(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/**
 * Stored tool definitions, as settings keep them (an import brings them from a file): each is read for its
 * shape, and one that is damaged is left out with the reason; a name that repeats keeps its first. The
 * parameters' schema was checked against JSON Schema's meta-schema when it was defined; a stored one is
 * checked for being an object of bounded size and depth (a session file is not trusted further).
 */
export function readToolDefinitions(raw: unknown): { tools: ToolDefinition[]; problems: string[] } {
  if (!Array.isArray(raw)) return { tools: defaultToolDefinitions(), problems: [] };
  const tools: ToolDefinition[] = [];
  const problems: string[] = [];
  for (const [index, item] of raw.slice(0, TOOL_LIMITS.toolsPerSession).entries()) {
    const read = readToolDefinition(
      item,
      tools.map((tool) => tool.name),
    );
    if ("problem" in read) problems.push(`tool ${index + 1}: ${read.problem}`);
    else tools.push(read.tool);
  }
  if (raw.length > TOOL_LIMITS.toolsPerSession)
    problems.push(
      `only the first ${TOOL_LIMITS.toolsPerSession} of ${raw.length} tools are kept (VITE_MAX_TOOLS)`,
    );
  return { tools, problems };
}

function readToolDefinition(
  raw: unknown,
  others: readonly string[],
): { tool: ToolDefinition } | { problem: string } {
  if (!isObject(raw)) return { problem: "not an object" };
  const name = typeof raw.name === "string" ? raw.name : "";
  const nameProblem = toolNameProblem(name, others);
  if (nameProblem) return { problem: nameProblem };
  const description = typeof raw.description === "string" ? raw.description : "";
  const descriptionTrouble = descriptionProblem(description);
  if (descriptionTrouble) return { problem: descriptionTrouble };
  const parameters = raw.parameters;
  if (!isObject(parameters)) return { problem: `"${name}" has no parameters schema` };
  if (nestsDeeperThan(parameters, TOOL_LIMITS.schemaDepth))
    return { problem: `the parameters of "${name}" nest more than ${TOOL_LIMITS.schemaDepth} levels` };
  if (JSON.stringify(parameters).length > TOOL_LIMITS.schemaBytes)
    return { problem: `the parameters of "${name}" are larger than ${TOOL_LIMITS.schemaBytes} bytes` };
  const source = readSource(raw.source);
  if (!source) return { problem: `"${name}" has no result source this version knows` };
  const trouble = sourceProblem(source);
  if (trouble) return { problem: trouble };
  return {
    tool: {
      name,
      description,
      parameters,
      source,
      enabled: raw.enabled !== false,
      ...(typeof raw.label === "string" ? { label: raw.label.slice(0, 80) } : {}),
    },
  };
}

function readSource(raw: unknown): ToolResultSource | undefined {
  if (!isObject(raw)) return undefined;
  switch (raw.kind) {
    case "builtin":
      return typeof raw.builtin === "string"
        ? { kind: "builtin", builtin: raw.builtin as BuiltinTool }
        : undefined;
    case "fixed":
      return typeof raw.json === "string" ? { kind: "fixed", json: raw.json } : undefined;
    case "template":
      return typeof raw.template === "string" ? { kind: "template", template: raw.template } : undefined;
    case "ask":
      return { kind: "ask" };
    default:
      return undefined;
  }
}

// Settings are read once per change and replaced, never edited: their stored list is the cache's key.
const readCache = new WeakMap<readonly unknown[], { tools: ToolDefinition[]; problems: string[] }>();

/** A session's tools from its settings (the demo tools when it has none stored). */
export function sessionTools(stored: readonly unknown[] | undefined): ToolDefinition[] {
  return sessionToolsRead(stored).tools;
}

export function sessionToolsRead(stored: readonly unknown[] | undefined): {
  tools: ToolDefinition[];
  problems: string[];
} {
  if (stored === undefined) return { tools: defaultToolDefinitions(), problems: [] };
  let read = readCache.get(stored);
  if (!read) {
    read = readToolDefinitions(stored);
    readCache.set(stored, read);
  }
  return read;
}

/** "fixed JSON", "template", "ask me", "runs in the browser (calculate)". */
export function describeSource(source: ToolResultSource): string {
  switch (source.kind) {
    case "builtin":
      return `runs in the browser (${source.builtin})`;
    case "fixed":
      return "fixed JSON";
    case "template":
      return "template over the arguments";
    case "ask":
      return "ask me";
  }
}
