import type { Tool } from "@earendil-works/pi-ai";
import { DEMO_TOOL_NAMES } from "../../../shared/demo-tool-names.ts";

/**
 * What the playground's agent is told about its tools: name, label, description and parameter schema.
 * The page shows them (the system message, the tools menu) without loading what runs them
 * (demo-tools.ts, which comes with the Agent).
 */
export interface DemoToolDeclaration extends Tool {
  label: string;
}

export const CURRENT_TIME: DemoToolDeclaration = {
  name: DEMO_TOOL_NAMES.time,
  label: "Current time",
  description: "Returns the current date and time of the user's browser, with its time zone.",
  parameters: { type: "object", properties: {}, additionalProperties: false },
};

export const CALCULATE: DemoToolDeclaration = {
  name: DEMO_TOOL_NAMES.arithmetic,
  label: "Calculator",
  description: 'Evaluates an arithmetic expression with + - * / % ^ and parentheses, e.g. "12 * (3 + 4)".',
  parameters: {
    type: "object",
    properties: { expression: { type: "string", description: "The expression to evaluate." } },
    required: ["expression"],
    additionalProperties: false,
  },
};

export const SAVE_NOTE: DemoToolDeclaration = {
  name: DEMO_TOOL_NAMES.note,
  label: "Save a note",
  description:
    "Saves a short note in the user's browser. Changes stored data, so the user may be asked to approve it.",
  parameters: {
    type: "object",
    properties: { text: { type: "string", description: "The note to save." } },
    required: ["text"],
    additionalProperties: false,
  },
};

export const DEMO_TOOL_DECLARATIONS: readonly DemoToolDeclaration[] = [CURRENT_TIME, CALCULATE, SAVE_NOTE];
