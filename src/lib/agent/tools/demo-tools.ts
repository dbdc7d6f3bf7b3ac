import type { AgentTool } from "@earendil-works/pi-agent-core";
import { evaluateArithmetic, formatNumber } from "./arithmetic.ts";
import { addNote } from "./notes-store.ts";
import { DEMO_TOOL_NAMES } from "../../../shared/demo-tool-names.ts";

/**
 * The tools the playground's agent can call, executed in the browser. Two read (the time, arithmetic),
 * one changes something (it writes a note) and therefore waits for approval by default.
 */

const currentTime: AgentTool = {
  name: DEMO_TOOL_NAMES.time,
  label: "Current time",
  description: "Returns the current date and time of the user's browser, with its time zone.",
  parameters: { type: "object", properties: {}, additionalProperties: false },
  async execute() {
    const now = new Date();
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const text = `${now.toISOString()} (local: ${now.toLocaleString("en-GB", { timeZone: zone })}, ${zone})`;
    return { content: [{ type: "text", text }], details: { iso: now.toISOString(), timeZone: zone } };
  },
};

const calculate: AgentTool = {
  name: DEMO_TOOL_NAMES.arithmetic,
  label: "Calculator",
  description: 'Evaluates an arithmetic expression with + - * / % ^ and parentheses, e.g. "12 * (3 + 4)".',
  parameters: {
    type: "object",
    properties: { expression: { type: "string", description: "The expression to evaluate." } },
    required: ["expression"],
    additionalProperties: false,
  },
  async execute(_id, params) {
    // pi validated the arguments against `parameters` before calling.
    const { expression } = params as { expression: string };
    const value = evaluateArithmetic(expression);
    return {
      content: [{ type: "text", text: `${expression} = ${formatNumber(value)}` }],
      details: { value },
    };
  },
};

const saveNote: AgentTool = {
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
  async execute(_id, params) {
    const { text } = params as { text: string };
    const notes = await addNote(text);
    return {
      content: [{ type: "text", text: `Saved note #${notes.length}: ${text}` }],
      details: { count: notes.length },
    };
  },
};

export const DEMO_TOOLS: readonly AgentTool[] = [currentTime, calculate, saveNote];
