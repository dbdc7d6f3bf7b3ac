import type { SchemaCheck } from "../agent/tools/tool-schema.ts";
import {
  BUILTIN_TOOLS,
  descriptionProblem,
  sourceProblem,
  toolNameProblem,
  type BuiltinTool,
  type ToolDefinition,
  type ToolResultSource,
  type ToolSourceKind,
} from "../agent/tools/tool-definitions.ts";
import { templatePlaceholders } from "../agent/tools/tool-results.ts";

/** A tool as the editor holds it: every field as typed, the parameters as JSON text. */
export interface ToolDraft {
  name: string;
  description: string;
  parameters: string;
  kind: ToolSourceKind;
  fixedJson: string;
  template: string;
  builtin: BuiltinTool;
  enabled: boolean;
  label?: string;
}

export type DraftField = "name" | "description" | "parameters" | "source";

/** What a new tool starts as: an example to change, valid as it is. */
export const EXAMPLE_TOOL: ToolDraft = {
  name: "lookup_order",
  description: "Looks up an order by its id and returns its status.",
  parameters: JSON.stringify(
    {
      type: "object",
      properties: { id: { type: "integer", description: "The order's id." } },
      required: ["id"],
    },
    null,
    2,
  ),
  kind: "template",
  fixedJson: '{"status": "shipped"}',
  template: '{"id": {{id}}, "status": "shipped"}',
  builtin: BUILTIN_TOOLS[0],
  enabled: true,
};

export function draftOf(tool: ToolDefinition): ToolDraft {
  const { source } = tool;
  return {
    name: tool.name,
    description: tool.description,
    parameters: JSON.stringify(tool.parameters, null, 2),
    kind: source.kind,
    fixedJson: source.kind === "fixed" ? source.json : EXAMPLE_TOOL.fixedJson,
    template: source.kind === "template" ? source.template : EXAMPLE_TOOL.template,
    builtin: source.kind === "builtin" ? source.builtin : BUILTIN_TOOLS[0],
    enabled: tool.enabled,
    ...(tool.label !== undefined ? { label: tool.label } : {}),
  };
}

function sourceOf(draft: ToolDraft): ToolResultSource {
  switch (draft.kind) {
    case "builtin":
      return { kind: "builtin", builtin: draft.builtin };
    case "fixed":
      return { kind: "fixed", json: draft.fixedJson };
    case "template":
      return { kind: "template", template: draft.template };
    case "ask":
      return { kind: "ask" };
  }
}

export type DraftCheck =
  | { ok: true; tool: ToolDefinition; notes: string[] }
  | { ok: false; problems: Partial<Record<DraftField, string[]>> };

/**
 * The tool a draft defines, or every problem with it by field: the name (providers' rules, unique in the
 * session), the description's length, the parameters (a JSON Schema of an object, by `checkSchema`) and
 * the result source. A template naming an argument the schema does not declare is a note, not a problem.
 */
export function checkDraft(
  draft: ToolDraft,
  otherNames: readonly string[],
  checkSchema: (text: string) => SchemaCheck,
): DraftCheck {
  const problems: Partial<Record<DraftField, string[]>> = {};
  const name = draft.name.trim();
  const nameProblem = toolNameProblem(name, otherNames);
  if (nameProblem) problems.name = [nameProblem];
  const descriptionTrouble = descriptionProblem(draft.description);
  if (descriptionTrouble) problems.description = [descriptionTrouble];
  const schema = checkSchema(draft.parameters);
  if (!schema.ok) problems.parameters = schema.problems;
  const source = sourceOf(draft);
  const sourceTrouble = sourceProblem(source);
  if (sourceTrouble) problems.source = [sourceTrouble];
  if (!schema.ok || Object.keys(problems).length > 0) return { ok: false, problems };
  const notes: string[] = [];
  if (source.kind === "template") {
    const properties = schema.schema.properties;
    const declared = properties !== null && typeof properties === "object" ? Object.keys(properties) : [];
    for (const path of templatePlaceholders(source.template)) {
      const top = path.split(".")[0] ?? path;
      if (top !== "$args" && !declared.includes(top))
        notes.push(
          `The template's {{${path}}} is not among the parameters' properties: calls without it get an error.`,
        );
    }
  }
  return {
    ok: true,
    tool: {
      name,
      description: draft.description,
      parameters: schema.schema,
      source,
      enabled: draft.enabled,
      ...(draft.label !== undefined ? { label: draft.label } : {}),
    },
    notes,
  };
}
