import { boolean, parts, text, timestamp } from "./fields.ts";
import { contentText, type ToolResultMessage } from "@earendil-works/pi-ai";
import { partText } from "../content.ts";
import { messageTokens } from "../tokens.ts";
import type { MessageKind } from "./kind.ts";
import { partsText } from "./text.ts";

/** What a tool answered to a call: sent as it is. */
export const toolResultKind = {
  role: "toolResult",
  label: "Tool result",
  convert: () => ({ fate: "sent" }),
  policy: null,
  badge: (message) => message.role,
  preview: (message) =>
    `${message.toolName}${message.isError ? " (error)" : ""}: ${partsText(message.content)}`,
  copyText: (message) => message.content.map(partText).join("\n"),
  tokens: messageTokens,
  title: (message) => `${message.toolName}: ${contentText(message.content, " ")}`,
  anatomy: null,
  // Empty strings are pi's values too: pi-ai's openai-completions adapter records a tool call a server
  // sent without an id with the id "", and its result answers that id.
  fields: {
    timestamp,
    toolCallId: text(),
    toolName: text(),
    content: parts(["text", "image"], { missing: () => [] }),
    isError: boolean(),
  },
  editable: (message) => message.content,
  piEntry: null,
  view: { conversation: "toolResult" },
  form: null,
} as const satisfies MessageKind<ToolResultMessage>;
