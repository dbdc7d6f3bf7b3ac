import { createProgress } from "../factories.ts";
import { number, text, timestamp } from "./fields.ts";
import { estimateTextTokens } from "@earendil-works/pi-ai/utils/estimate";
import { DEFAULT_POLICIES } from "../policies.ts";
import type { ProgressMessage } from "../types.ts";
import { userText, type MessageKind, type ModelFate } from "./kind.ts";

export function progressText(message: ProgressMessage): string {
  const percent = message.fraction === undefined ? "" : ` ${Math.round(message.fraction * 100)}%`;
  return `[Progress${percent}] ${message.text}`;
}

const AS_TEXT: ModelFate<ProgressMessage> = {
  fate: "converted",
  build: (message) => userText(progressText(message), message.timestamp),
  key: "userText",
  byPolicy: true,
};

/** A progress log line; the model reads it only when the session's policy says so. */
export const progressKind = {
  role: "progress",
  label: "Progress",
  convert: (_message, policies) => (policies.progress === "hidden" ? { fate: "hidden" } : AS_TEXT),
  policy: { default: DEFAULT_POLICIES.progress },
  badge: (message) => message.role,
  preview: (message) =>
    `${message.fraction === undefined ? "" : `${Math.round(message.fraction * 100)}% `}${message.text}`,
  copyText: (message) => message.text,
  tokens: (message) => estimateTextTokens(message.text),
  title: (message) => message.text,
  anatomy: { label: "progress (by policy)", lhar: "system_injections" },
  fields: {
    timestamp,
    text: text({ nonEmpty: true }),
    fraction: number({ optional: true, min: 0, max: 1 }),
  },
  editable: null,
  piEntry: null,
  view: { load: () => import("./views/ProgressView.svelte") },
  form: {
    fields: [
      { name: "text", label: "Text", input: "text" },
      { name: "fraction", label: "Fraction done (0 to 1)", input: "number", hint: "Optional" },
    ],
    initial: {},
    build: (form) =>
      createProgress(form.required("text", "Text"), form.optionalNumber("fraction", "Fraction"), 0),
  },
} as const satisfies MessageKind<ProgressMessage>;
