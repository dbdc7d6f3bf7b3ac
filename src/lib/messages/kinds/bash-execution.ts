import { createBashExecution } from "../factories.ts";
import { boolean, number, text, timestamp } from "./fields.ts";
import { nullable, num } from "@earendil-works/pi-schema";
import { estimateTextTokens } from "@earendil-works/pi-ai/utils/estimate";
import type { BashExecutionMessage } from "../types.ts";
import { userText, type MessageKind, type ModelFate } from "./kind.ts";

// pi's coding agent 1.6.0 `bashExecutionToText`, byte for byte (a conformance test compares the two).
export function bashExecutionToText(message: BashExecutionMessage): string {
  let text = `Ran \`${message.command}\`\n`;
  if (message.output) {
    text += `\`\`\`\n${message.output}\n\`\`\``;
  } else {
    text += "(no output)";
  }
  if (message.cancelled) {
    text += "\n\n(command cancelled)";
  } else if (message.exitCode !== null && message.exitCode !== undefined && message.exitCode !== 0) {
    text += `\n\nCommand exited with code ${message.exitCode}`;
  }
  if (message.truncated && message.fullOutputPath) {
    text += `\n\n[Output truncated. Full output: ${message.fullOutputPath}]`;
  }
  return text;
}

const AS_TEXT: ModelFate<BashExecutionMessage> = {
  fate: "converted",
  build: (message) => userText(bashExecutionToText(message), message.timestamp),
  key: "",
  byPolicy: false,
};

/** A shell command the user ran with `!` (or `!!`, kept out of the model's context). */
export const bashExecutionKind = {
  role: "bashExecution",
  label: "Bash execution",
  convert: (message) => (message.excludeFromContext ? { fate: "excluded" } : AS_TEXT),
  policy: null,
  badge: (message) => message.role,
  preview: (message) =>
    `${message.excludeFromContext ? "!!" : "!"}${message.command} → ${message.cancelled ? "cancelled" : `exit ${message.exitCode ?? "?"}`}`,
  copyText: (message) => `$ ${message.command}\n${message.output}`,
  tokens: (message) => estimateTextTokens(message.command + message.output),
  title: (message) => `!${message.command}`,
  anatomy: { label: "bash executions", lhar: "system_injections" },
  fields: {
    timestamp,
    command: text(),
    output: text(),
    exitCode: {
      ...number({ optional: true, integer: true }),
      // Older pi sessions wrote null for an unknown code; pi's bashExecutionToText reads it as unknown.
      readAs: {
        schema: nullable(num()),
        optional: true,
        note: (name) =>
          `${name} is null, as older pi sessions wrote an unknown code: read as unknown, as pi reads it`,
      },
    },
    cancelled: boolean(),
    truncated: boolean(),
    fullOutputPath: text({ optional: true }),
    excludeFromContext: boolean({ optional: true }),
  },
  editable: null,
  piEntry: null,
  view: { load: () => import("./views/BashExecutionView.svelte") },
  form: {
    fields: [
      { name: "command", label: "Command", input: "text" },
      { name: "output", label: "Output", input: "textarea" },
      { name: "exitCode", label: "Exit code", input: "number", hint: "Empty when unknown" },
      { name: "cancelled", label: "Cancelled", input: "checkbox" },
      { name: "truncated", label: "Truncated", input: "checkbox" },
      {
        name: "fullOutputPath",
        label: "Full output path",
        input: "text",
        hint: "Optional; named to the model when truncated",
      },
      { name: "excludeFromContext", label: "Exclude from context (!!)", input: "checkbox" },
    ],
    initial: { exitCode: "0" },
    build: (form) => {
      const path = form.text("fullOutputPath").trim();
      return createBashExecution(
        {
          command: form.required("command", "Command"),
          output: form.text("output"),
          exitCode: form.optionalNumber("exitCode", "Exit code", true),
          cancelled: form.flag("cancelled"),
          truncated: form.flag("truncated"),
          ...(path ? { fullOutputPath: path } : {}),
          excludeFromContext: form.flag("excludeFromContext"),
        },
        0,
      );
    },
  },
} as const satisfies MessageKind<BashExecutionMessage>;
