import { toToolDeclaration } from "@earendil-works/pi-ai";
import { describe, expect, it } from "vitest";
import { DEMO_TOOL_DECLARATIONS } from "./demo-tool-declarations.ts";
import {
  defaultToolDefinitions,
  enabledDeclarations,
  readToolDefinitions,
  sessionTools,
  sourceProblem,
  toolNameProblem,
  type ToolDefinition,
} from "./tool-definitions.ts";

const lookup: ToolDefinition = {
  name: "lookup_order",
  description: "Looks up an order.",
  parameters: { type: "object", properties: { id: { type: "integer" } }, required: ["id"] },
  source: { kind: "template", template: '{"id": {{id}}, "status": "shipped"}' },
  enabled: true,
};

describe("tool definitions", () => {
  it("make the demo tools examples of the mechanism, declared exactly as sessions always declared them", () => {
    expect(enabledDeclarations(defaultToolDefinitions())).toEqual(
      DEMO_TOOL_DECLARATIONS.map((declaration) => toToolDeclaration(declaration)),
    );
    expect(defaultToolDefinitions().map((tool) => tool.source)).toEqual([
      { kind: "builtin", builtin: "current_time" },
      { kind: "builtin", builtin: "calculate" },
      { kind: "builtin", builtin: "save_note" },
    ]);
  });

  it("offer the model only the tools switched on", () => {
    const tools = [lookup, { ...defaultToolDefinitions()[0]!, enabled: false }];
    expect(enabledDeclarations(tools).map((tool) => tool.name)).toEqual(["lookup_order"]);
  });

  it.each([
    ["", "A tool needs a name."],
    ["has space", "cannot be a tool name"],
    ["1st", "cannot be a tool name"],
    ["a".repeat(65), "cannot be a tool name"],
    ["<script>", "cannot be a tool name"],
    ["__proto__", "every JavaScript object has"],
    ["constructor", "every JavaScript object has"],
    ["lookup_order", "already has a tool named"],
  ])("refuse the name %j", (name, problem) => {
    expect(toolNameProblem(name, ["lookup_order"])).toContain(problem);
  });

  it("accept names providers take", () => {
    expect(toolNameProblem("get-weather_2", [])).toBeUndefined();
    expect(toolNameProblem("_private", [])).toBeUndefined();
  });

  it("check that a fixed result is JSON", () => {
    expect(sourceProblem({ kind: "fixed", json: '{"ok": true}' })).toBeUndefined();
    expect(sourceProblem({ kind: "fixed", json: "{ok}" })).toMatch(/^The fixed result is not JSON: /);
    expect(sourceProblem({ kind: "builtin", builtin: "rm_rf" as "calculate" })).toContain(
      "not one of the browser's tools",
    );
  });

  it("read stored definitions for their shape, leaving out damaged ones with the reason", () => {
    const read = readToolDefinitions([
      lookup,
      { ...lookup, name: "lookup_order" },
      { ...lookup, name: "__proto__" },
      { ...lookup, name: "bad_source", source: { kind: "shell", command: "rm -rf /" } },
      { ...lookup, name: "no_schema", parameters: "x" },
      "junk",
      { ...lookup, name: "off", enabled: false },
    ]);
    expect(read.tools.map((tool) => [tool.name, tool.enabled])).toEqual([
      ["lookup_order", true],
      ["off", false],
    ]);
    expect(read.problems).toEqual([
      'tool 2: This session already has a tool named "lookup_order".',
      'tool 3: "__proto__" is a name every JavaScript object has; choose another.',
      'tool 4: "bad_source" has no result source this version knows',
      'tool 5: "no_schema" has no parameters schema',
      "tool 6: not an object",
    ]);
  });

  it("give the demo tools to a session that has none stored, and read a stored list once", () => {
    expect(sessionTools(undefined)).toEqual(defaultToolDefinitions());
    const stored = [lookup];
    expect(sessionTools(stored)).toBe(sessionTools(stored));
    expect(sessionTools([])).toEqual([]);
  });
});
