import { describe, expect, it } from "vitest";
import { checkParametersSchema } from "../agent/tools/tool-schema.ts";
import { defaultToolDefinitions } from "../agent/tools/tool-definitions.ts";
import { checkDraft, draftOf, EXAMPLE_TOOL } from "./tool-draft.ts";

describe("a tool draft", () => {
  it("starts as a valid example", () => {
    const check = checkDraft(EXAMPLE_TOOL, [], checkParametersSchema);
    expect(check).toMatchObject({
      ok: true,
      tool: {
        name: "lookup_order",
        source: { kind: "template", template: '{"id": {{id}}, "status": "shipped"}' },
        parameters: { type: "object", required: ["id"] },
      },
      notes: [],
    });
  });

  it("round-trips a demo tool unchanged", () => {
    for (const tool of defaultToolDefinitions()) {
      const others = defaultToolDefinitions()
        .map((other) => other.name)
        .filter((name) => name !== tool.name);
      expect(checkDraft(draftOf(tool), others, checkParametersSchema)).toEqual({ ok: true, tool, notes: [] });
    }
  });

  it("lists every problem by field", () => {
    const check = checkDraft(
      {
        ...EXAMPLE_TOOL,
        name: "lookup order",
        parameters: '{"type": "object", "properties": {"id": {"type": "strnig"}}}',
        kind: "fixed",
        fixedJson: "{nope}",
      },
      [],
      checkParametersSchema,
    );
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.problems.name?.[0]).toContain('"lookup order" cannot be a tool name');
    expect(check.problems.parameters).toEqual([
      '"properties.id.type": "strnig" is not a JSON Schema type; use one of array, boolean, integer, null, number, object, string (or a list of them).',
    ]);
    expect(check.problems.source?.[0]).toMatch(/^The fixed result is not JSON/);
    expect(check.problems.description).toBeUndefined();
  });

  it("notes a template placeholder the schema does not declare", () => {
    const check = checkDraft(
      { ...EXAMPLE_TOOL, template: "{{id}} {{color}} {{$args}}" },
      [],
      checkParametersSchema,
    );
    expect(check).toMatchObject({
      ok: true,
      notes: [
        "The template's {{color}} is not among the parameters' properties: calls without it get an error.",
      ],
    });
  });
});
