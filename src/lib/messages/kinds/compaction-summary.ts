import { createCompactionSummary } from "../factories.ts";
import { number, text, timestamp } from "./fields.ts";
import { num } from "@earendil-works/pi-schema";
import { estimateTextTokens } from "@earendil-works/pi-ai/utils/estimate";
import type { CompactionSummaryMessage } from "../types.ts";
import { userText, type MessageKind, type ModelFate } from "./kind.ts";

// pi's coding agent 1.6.0 texts, byte for byte (a conformance test compares them).
export const COMPACTION_SUMMARY_PREFIX = `The conversation history before this point was compacted into the following summary:

<summary>
`;
export const COMPACTION_SUMMARY_SUFFIX = `
</summary>`;

const AS_TEXT: ModelFate<CompactionSummaryMessage> = {
  fate: "converted",
  build: (message) =>
    userText(COMPACTION_SUMMARY_PREFIX + message.summary + COMPACTION_SUMMARY_SUFFIX, message.timestamp),
  key: "",
  byPolicy: false,
};

/** Inserted by compaction: the turns before it are summarised here and no longer sent to the model. */
export const compactionSummaryKind = {
  role: "compactionSummary",
  label: "Compaction summary",
  convert: () => AS_TEXT,
  policy: null,
  badge: (message) => message.role,
  preview: (message) => message.summary,
  copyText: (message) => message.summary,
  tokens: (message) => estimateTextTokens(message.summary),
  title: (message) => message.summary,
  anatomy: { label: "compaction summaries", lhar: "system_injections" },
  fields: {
    timestamp,
    summary: text(),
    tokensBefore: {
      ...number({ integer: true, min: 0 }),
      readAs: {
        schema: num(),
        optional: true,
        note: (name) => `${name} is missing: kept so, as pi keeps it`,
      },
    },
  },
  editable: null,
  // As pi's appendCompaction with no entry to keep: the summary stands for everything before it.
  piEntry: (message, { id, parentId, timestamp, system }) => ({
    type: "compaction",
    id,
    parentId,
    timestamp,
    summary: message.summary,
    firstKeptEntryId: id,
    tokensBefore: message.tokensBefore,
    ...(system ? { systemMessage: { ...system, timestamp: message.timestamp } } : {}),
  }),
  view: { load: () => import("./views/SummaryCard.svelte") },
  form: {
    fields: [
      { name: "summary", label: "Summary", input: "textarea" },
      { name: "tokensBefore", label: "Tokens before compaction", input: "number" },
    ],
    initial: { tokensBefore: "0" },
    build: (form) => {
      const tokens = form.requiredNumber("tokensBefore", "Tokens before compaction", true);
      return createCompactionSummary(form.required("summary", "Summary"), tokens, 0);
    },
  },
} as const satisfies MessageKind<CompactionSummaryMessage>;
