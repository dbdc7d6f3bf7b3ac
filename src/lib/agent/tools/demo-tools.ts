import type { AgentTool } from "@earendil-works/pi-agent-core";
import { evaluateArithmetic, formatNumber } from "./arithmetic.ts";
import { addNote } from "./notes-store.ts";
import type { BuiltinTool } from "./tool-definitions.ts";

/**
 * What the demo tools run in the browser: the time, arithmetic, and a note saved in the browser. A tool
 * definition whose result source is "builtin" runs one of these; the demo tools are such definitions.
 */
export const BUILTIN_EXECUTORS: Record<BuiltinTool, AgentTool["execute"]> = {
  async current_time() {
    const now = new Date();
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const text = `${now.toISOString()} (local: ${now.toLocaleString("en-GB", { timeZone: zone })}, ${zone})`;
    return { content: [{ type: "text", text }], details: { iso: now.toISOString(), timeZone: zone } };
  },
  async calculate(_id, params) {
    // pi validated the arguments against `parameters` before calling.
    const { expression } = params as { expression: string };
    const value = evaluateArithmetic(expression);
    return {
      content: [{ type: "text", text: `${expression} = ${formatNumber(value)}` }],
      details: { value },
    };
  },
  async save_note(_id, params) {
    const { text } = params as { text: string };
    const notes = await addNote(text);
    return {
      content: [{ type: "text", text: `Saved note #${notes.length}: ${text}` }],
      details: { count: notes.length },
    };
  },
};
