import { createInjectedAssistantMessage } from "../factories.ts";
import { choice, parts, text, timestamp, usage } from "./fields.ts";
import { str } from "@earendil-works/pi-schema";
import { STOP_REASONS } from "../../../shared/enums.ts";
import { contentText, type AssistantMessage } from "@earendil-works/pi-ai";
import { otherBlockLabel } from "../content.ts";
import { messageTokens } from "../tokens.ts";
import type { FactContent, MessageKind } from "./kind.ts";
import { partsText, TITLE_SOURCE_LENGTH, withoutMarkdown } from "./text.ts";

/** A model's reply (or one written by hand): sent as it is. */
export const assistantKind = {
  role: "assistant",
  label: "Assistant message",
  convert: () => ({ fate: "sent" }),
  policy: null,
  badge: (message) => message.role,
  preview: (message) => {
    const text = partsText(message.content);
    const problem =
      message.stopReason === "error" || message.stopReason === "aborted" ? `[${message.stopReason}] ` : "";
    return `${problem}${text || message.errorMessage || "(empty)"}`;
  },
  copyText: (message) =>
    message.content
      .map((block) => {
        if (block.type === "text") return block.text;
        if (block.type === "thinking") return "";
        if (block.type === "toolCall") return `${block.name}(${JSON.stringify(block.arguments)})`;
        return otherBlockLabel(block);
      })
      .filter((text) => text !== "")
      .join("\n\n"),
  tokens: messageTokens,
  title: (message) => {
    // A reply is Markdown, shown rendered: its title is the text a reader sees, without the marks.
    const text = withoutMarkdown(contentText(message.content, " ").slice(0, TITLE_SOURCE_LENGTH));
    if (text.trim()) return text;
    const calls = message.content.flatMap((block) => (block.type === "toolCall" ? [block.name] : []));
    if (calls.length > 0) return `calls ${calls.join(", ")}`;
    if (message.stopReason === "error") return "failed reply";
    return message.stopReason === "aborted" ? "stopped reply" : "";
  },
  anatomy: null,
  fields: {
    timestamp,
    content: parts(["text", "thinking", "toolCall"], { missing: () => [] }),
    api: text(),
    provider: text(),
    model: text(),
    stopReason: {
      ...choice(STOP_REASONS),
      readAs: {
        schema: str(),
        optional: false,
        note: (name, value) => `${name} ${JSON.stringify(value)} is not one pi knows: kept as it is`,
      },
    },
    usage,
    errorMessage: text({ optional: true }),
  },
  editable: (message) => message.content as FactContent,
  piEntry: null,
  view: { conversation: "assistant" },
  form: {
    fields: [{ name: "text", label: "Text", input: "textarea" }],
    initial: {},
    build: (form) => createInjectedAssistantMessage(form.required("text", "Text"), 0),
  },
} as const satisfies MessageKind<AssistantMessage>;
