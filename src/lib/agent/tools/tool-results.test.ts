import { describe, expect, it } from "vitest";
import { renderTemplate, templatePlaceholders } from "./tool-results.ts";

describe("a result template", () => {
  it("puts the call's arguments in: strings as they are, anything else as JSON", () => {
    expect(
      renderTemplate('{"id": {{id}}, "who": "{{customer.name}}", "tags": {{tags}}}', {
        id: 7,
        customer: { name: "Ada" },
        tags: ["a"],
      }),
    ).toEqual({ text: '{"id": 7, "who": "Ada", "tags": ["a"]}' });
    expect(renderTemplate("all: {{ $args }}", { id: 7 })).toEqual({ text: 'all: {"id":7}' });
  });

  it("says which placeholders the arguments do not have, never leaving them empty silently", () => {
    expect(renderTemplate("{{id}} {{missing}} {{a.b}}", { id: 1, a: 2 })).toEqual({
      error: "The tool's template names {{missing}}, {{a.b}}, which this call's arguments do not have.",
    });
    // Inherited properties are not arguments.
    expect(renderTemplate("{{constructor}}", {})).toMatchObject({
      error: expect.stringContaining("{{constructor}}"),
    });
  });

  it("refuses a result larger than the limit", () => {
    expect(renderTemplate("{{x}}", { x: "y".repeat(300_000) })).toMatchObject({
      error: expect.stringContaining("at most 200,000"),
    });
  });

  it("lists its placeholders", () => {
    expect(templatePlaceholders("{{id}} and {{ a.b }} and {{$args}}")).toEqual(["id", "a.b", "$args"]);
  });
});
