import { parts, sentence, timestamp } from "./fields.ts";
import { arr, unknown } from "@earendil-works/pi-schema";
import type { SystemMessage } from "@earendil-works/pi-ai";
import { contentParts, partText } from "../content.ts";
import { messageTokens } from "../tokens.ts";
import type { MessageKind } from "./kind.ts";
import { partsText } from "./text.ts";

/** The system prompt as a fact of the session (pi's `SystemMessage`): sent as it is. */
export const systemKind = {
  role: "system",
  label: "System prompt",
  convert: () => ({ fate: "sent" }),
  policy: null,
  badge: (message) => message.role,
  preview: (message) => {
    const text = partsText(message.content);
    const tools = [
      ...(message.toolsAdded?.map((tool) => `+${tool.name}`) ?? []),
      ...(message.toolsRemoved?.map((tool) => `-${tool.name}`) ?? []),
    ];
    return (
      [text, tools.length > 0 ? `tools ${tools.join(" ")}` : ""].filter(Boolean).join(" · ") || "(empty)"
    );
  },
  copyText: (message) => contentParts(message.content).map(partText).join("\n"),
  tokens: messageTokens,
  title: () => "system prompt",
  anatomy: null,
  fields: {
    timestamp,
    content: parts(["text", "image"], { orString: true, missing: () => "" }),
    toolsAdded: {
      ...sentence("toolsAdded", "toolsAdded must be a list of tools."),
      schema: arr(unknown()),
      optional: true,
    },
    toolsRemoved: {
      ...sentence("toolsRemoved", "toolsRemoved must be a list of tool references."),
      schema: arr(unknown()),
      optional: true,
    },
  },
  editable: null,
  piEntry: null,
  view: { conversation: "system" },
  form: null,
} as const satisfies MessageKind<SystemMessage>;
