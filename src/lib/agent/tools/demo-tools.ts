import type { AgentTool } from "@earendil-works/pi-agent-core";
import { evaluateArithmetic, formatNumber } from "./arithmetic.ts";
import { addNote } from "./notes-store.ts";
import { CALCULATE, CURRENT_TIME, SAVE_NOTE } from "./demo-tool-declarations.ts";

/**
 * The tools the playground's agent can call, executed in the browser. Two read (the time, arithmetic),
 * one changes something (it writes a note) and therefore waits for approval by default.
 */

const currentTime: AgentTool = {
  ...CURRENT_TIME,
  async execute() {
    const now = new Date();
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const text = `${now.toISOString()} (local: ${now.toLocaleString("en-GB", { timeZone: zone })}, ${zone})`;
    return { content: [{ type: "text", text }], details: { iso: now.toISOString(), timeZone: zone } };
  },
};

const calculate: AgentTool = {
  ...CALCULATE,
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
  ...SAVE_NOTE,
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
