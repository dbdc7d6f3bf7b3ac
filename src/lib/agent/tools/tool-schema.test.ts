import { describe, expect, it } from "vitest";
import { checkParametersSchema } from "./tool-schema.ts";

describe("a tool's parameters schema", () => {
  it("accepts a JSON Schema of an object", () => {
    const check = checkParametersSchema(
      '{"type": "object", "properties": {"id": {"type": "integer", "minimum": 1}}, "required": ["id"]}',
    );
    expect(check).toEqual({
      ok: true,
      schema: {
        type: "object",
        properties: { id: { type: "integer", minimum: 1 } },
        required: ["id"],
      },
    });
  });

  it('refuses "type": "strnig" with a message naming the place and the problem', () => {
    const check = checkParametersSchema('{"type": "object", "properties": {"id": {"type": "strnig"}}}');
    expect(check).toEqual({
      ok: false,
      problems: [
        '"properties.id.type": "strnig" is not a JSON Schema type; use one of array, boolean, integer, null, number, object, string (or a list of them).',
      ],
    });
  });

  it("explains other meta-schema problems where they are", () => {
    const check = checkParametersSchema(
      '{"type": "object", "required": "id", "properties": {"n": {"minimum": "1"}}}',
    );
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.problems).toContain('"required": must be of type array');
    expect(check.problems).toContain('"properties.n.minimum": must be of type number');
  });

  it("requires an object at the top, as providers do", () => {
    expect(checkParametersSchema('{"type": "string"}')).toEqual({
      ok: false,
      problems: [
        'The parameters must describe an object ("type": "object" at the top), as providers require; this one has "type": "string".',
      ],
    });
    expect(checkParametersSchema("[]")).toMatchObject({
      ok: false,
      problems: [expect.stringContaining("JSON Schema object")],
    });
  });

  it("says where JSON that does not parse goes wrong, and refuses schemas too large or too deep", () => {
    expect(checkParametersSchema('{"type": ')).toMatchObject({
      ok: false,
      problems: [expect.stringMatching(/^The schema is not JSON: /)],
    });
    const deep = `${'{"type": "object", "properties": {"a": '.repeat(40)}{}${"}}".repeat(40)}`;
    expect(checkParametersSchema(deep)).toMatchObject({
      ok: false,
      problems: [expect.stringContaining("nests more than")],
    });
    expect(checkParametersSchema(`{"type": "object", "description": "${"x".repeat(70_000)}"}`)).toMatchObject(
      {
        ok: false,
        problems: [expect.stringContaining("at most 65,536")],
      },
    );
  });
});
