import { createUserMessage } from "../factories.ts";
import { parts, timestamp } from "./fields.ts";
import { contentText, type UserMessage } from "@earendil-works/pi-ai";
import { contentParts, partText } from "../content.ts";
import { messageTokens } from "../tokens.ts";
import type { MessageKind } from "./kind.ts";
import { partsText } from "./text.ts";

/** What a person said: sent as it is. */
export const userKind = {
  role: "user",
  label: "User message",
  convert: () => ({ fate: "sent" }),
  policy: null,
  badge: (message) => message.role,
  preview: (message) => partsText(message.content) || "(empty)",
  copyText: (message) => contentParts(message.content).map(partText).join("\n"),
  tokens: messageTokens,
  title: (message) => contentText(message.content, " "),
  anatomy: null,
  fields: { timestamp, content: parts(["text", "image"], { orString: true, missing: () => [] }) },
  editable: (message) => message.content,
  piEntry: null,
  view: { conversation: "user" },
  form: {
    fields: [{ name: "text", label: "Text", input: "textarea" }],
    initial: {},
    build: (form) => createUserMessage(form.required("text", "Text"), 0),
  },
} as const satisfies MessageKind<UserMessage>;
