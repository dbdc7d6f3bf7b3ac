import { createBranchSummary } from "../factories.ts";
import { sentence, text, timestamp } from "./fields.ts";
import { nullable, str } from "@earendil-works/pi-schema";
import { estimateTextTokens } from "@earendil-works/pi-ai/utils/estimate";
import type { BranchSummaryMessage } from "../types.ts";
import { userText, type MessageKind, type ModelFate } from "./kind.ts";

// pi's coding agent 1.6.0 texts, byte for byte (a conformance test compares them).
export const BRANCH_SUMMARY_PREFIX = `The following is a summary of a branch that this conversation came back from:

<summary>
`;
export const BRANCH_SUMMARY_SUFFIX = `</summary>`;

const AS_TEXT: ModelFate<BranchSummaryMessage> = {
  fate: "converted",
  build: (message) =>
    userText(BRANCH_SUMMARY_PREFIX + message.summary + BRANCH_SUMMARY_SUFFIX, message.timestamp),
  key: "",
  byPolicy: false,
};

/** Inserted where the conversation returns from a branch, summarising what happened there. */
export const branchSummaryKind = {
  role: "branchSummary",
  label: "Branch summary",
  convert: () => AS_TEXT,
  policy: null,
  badge: (message) => message.role,
  preview: (message) => message.summary,
  copyText: (message) => message.summary,
  tokens: (message) => estimateTextTokens(message.summary),
  title: (message) => message.summary,
  anatomy: { label: "branch summaries", lhar: "system_injections" },
  fields: {
    timestamp,
    summary: text(),
    fromId: { ...sentence("fromId", "fromId must be text or null."), schema: nullable(str()) },
  },
  editable: null,
  piEntry: (message, { id, parentId, timestamp }) => ({
    type: "branch_summary",
    id,
    parentId,
    timestamp,
    fromId: message.fromId ?? "",
    summary: message.summary,
  }),
  view: { load: () => import("./views/SummaryCard.svelte") },
  form: {
    fields: [
      { name: "summary", label: "Summary", input: "textarea" },
      { name: "fromId", label: "From entry id", input: "text", hint: "Optional" },
    ],
    initial: {},
    build: (form) => {
      const fromId = form.text("fromId").trim();
      return createBranchSummary(form.required("summary", "Summary"), fromId || null, 0);
    },
  },
} as const satisfies MessageKind<BranchSummaryMessage>;
