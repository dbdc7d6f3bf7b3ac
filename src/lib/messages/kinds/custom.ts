import { createCustomMessage } from "../factories.ts";
import { boolean, parts, text, timestamp } from "./fields.ts";
import { contentText } from "@earendil-works/pi-ai";
import { estimateTextAndImageContentTokens } from "@earendil-works/pi-ai/utils/estimate";
import { contentParts, partText } from "../content.ts";
import { textAndImages } from "../tokens.ts";
import type { CustomMessage } from "../types.ts";
import type { MessageKind, ModelFate } from "./kind.ts";
import { partsText } from "./text.ts";

const AS_USER: ModelFate<CustomMessage> = {
  fate: "converted",
  build: (message) => ({
    role: "user",
    content: contentParts(message.content),
    timestamp: message.timestamp,
  }),
  key: "",
  byPolicy: false,
};

/** A message an extension injected (pi's `sendCustomMessage`): sent as user content. */
export const customKind = {
  role: "custom",
  label: "Custom (extension message)",
  convert: () => AS_USER,
  policy: null,
  badge: (message) => `custom:${message.customType}`,
  preview: (message) => partsText(message.content) || "(empty)",
  copyText: (message) => contentParts(message.content).map(partText).join("\n"),
  tokens: (message) => estimateTextAndImageContentTokens(textAndImages(message.content)),
  title: (message) => contentText(message.content, " "),
  anatomy: { label: "custom messages", lhar: "system_injections" },
  fields: {
    timestamp,
    customType: text(),
    content: parts(["text", "image"], { orString: true }),
    display: boolean(),
  },
  editable: (message) => message.content,
  // pi's `sendCustomMessage` writes a custom_message entry.
  piEntry: (message, { id, parentId, timestamp }) => ({
    type: "custom_message",
    id,
    parentId,
    timestamp,
    customType: message.customType,
    content: message.content,
    display: message.display,
    ...(message.details !== undefined ? { details: message.details } : {}),
  }),
  view: { load: () => import("./views/CustomMessageView.svelte") },
  form: {
    fields: [
      { name: "customType", label: "Custom type", input: "text", hint: "e.g. calendar-context" },
      { name: "content", label: "Content", input: "textarea" },
      { name: "display", label: "Display in the chat", input: "checkbox" },
      {
        name: "details",
        label: "Details (JSON)",
        input: "json",
        hint: "Optional structured data for the UI; never sent",
      },
    ],
    initial: { display: true },
    build: (form) => {
      const details = form.json("details", "Details");
      return createCustomMessage(
        form.required("customType", "Custom type"),
        form.required("content", "Content"),
        form.flag("display"),
        details,
        0,
      );
    },
  },
} as const satisfies MessageKind<CustomMessage>;
