import { chainEntries, type SessionEntry } from "../messages/entries.ts";
import type { AgentMessage } from "@earendil-works/pi-agent-core";
import type { AssistantMessage, ToolCall } from "@earendil-works/pi-ai";
import {
  createApprovalRequest,
  createBashExecution,
  createBranchSummary,
  createCustomMessage,
  createNotification,
  createProgress,
  createUserMessage,
} from "../messages/factories.ts";
import { DEFAULT_POLICIES, type VisibilityPolicies } from "../messages/policies.ts";
import { rejectionText } from "../agent/approvals.ts";
import { defaultSettings, type SessionSettings } from "../agent/session-settings.ts";
import { zeroUsage } from "../../shared/usage.ts";
import { EXAMPLE_API } from "../messages/reply-source.ts";

/**
 * Example sessions, each showing one idea from pi's message flow. Loading one creates a new session;
 * nothing existing is touched. The leading system message is supplied by the caller (prompt and tools).
 */
export interface Example {
  id: string;
  title: string;
  /** What to look at in the inspector. */
  lesson: string;
  facts: AgentMessage[];
  policies?: Partial<VisibilityPolicies>;
  /** A compaction entry placed after the fact at `after`, keeping the facts from `keepFrom` on. */
  compaction?: { after: number; keepFrom: number; summary: string; tokensBefore: number };
}

const T0 = Date.UTC(2026, 0, 15, 9, 0, 0);
let clock = 0;
const at = () => T0 + ++clock * 1_000;

/** A prepared assistant reply: written for the example, marked so the chat never passes it off as a model's. */
function reply(text: string, calls: ToolCall[] = []): AssistantMessage {
  return {
    role: "assistant",
    content: [{ type: "text", text }, ...calls],
    api: EXAMPLE_API,
    provider: "example",
    model: "prepared reply",
    usage: zeroUsage(),
    stopReason: calls.length > 0 ? "toolUse" : "stop",
    timestamp: at(),
  };
}

function user(text: string): AgentMessage {
  return createUserMessage(text, at());
}

export function buildExamples(): Example[] {
  clock = 0;
  return [
    {
      id: "bash",
      title: "Example: bash output with ! and !!",
      lesson:
        'The ! command reaches the model as a "Ran `…`" user message; the !! command stays in the facts only.',
      facts: [
        user("The tests fail on my machine. I ran them for you."),
        createBashExecution(
          {
            command: "npm test",
            output: "FAIL src/math.test.ts\n  expected 4, received 5\n1 failing",
            exitCode: 1,
            cancelled: false,
            truncated: false,
          },
          at(),
        ),
        createBashExecution(
          {
            command: "cat .env",
            output: "API_TOKEN=do-not-send-me",
            exitCode: 0,
            cancelled: false,
            truncated: false,
            excludeFromContext: true,
          },
          at(),
        ),
        createBashExecution(
          {
            command: "npm run build",
            output: "…4,000 lines…",
            exitCode: 0,
            cancelled: false,
            truncated: true,
            fullOutputPath: "/tmp/build.log",
          },
          at(),
        ),
        reply("The failing test expects 4 and gets 5; the secret from .env never reached me."),
      ],
    },
    {
      id: "compaction",
      title: "Example: a compaction summary replacing old turns",
      lesson:
        "The model reads the compaction's summary first, then the entries it kept (from its first kept entry on) and what came after; the turns before stay in the session for you.",
      facts: [
        user("Let's plan the database migration."),
        reply("Step 1: add the column. Step 2: backfill. Step 3: switch reads."),
        user("And rollback?"),
        reply("Keep the old column until reads have switched for a week."),
        user("Remind me what step 2 was."),
      ],
      compaction: {
        after: 3,
        keepFrom: 2,
        summary:
          "We planned a three-step migration (add column, backfill, switch reads) and talked about rollback.",
        tokensBefore: 18_400,
      },
    },
    {
      id: "branch",
      title: "Example: a branch summary",
      lesson: "Coming back from a branch, its summary is sent as a user message wrapped in <summary> tags.",
      facts: [
        user("Try rewriting the parser with a regex."),
        createBranchSummary(
          "On the branch we tried a regex parser; it failed on nested parentheses, so we came back.",
          "entry-7f3a",
          at(),
        ),
        user("OK, so continue with the recursive descent parser."),
      ],
    },
    {
      id: "notifications-hidden",
      title: "Example: notifications, hidden from the model",
      lesson:
        "With the tutorial's default policy, notifications are facts people see and the model never does. Switch the policy in the inspector.",
      facts: [
        user("Summarise the report when it is uploaded."),
        createNotification("Upload finished: report.pdf (2.1 MB)", "info", at()),
        createNotification("Storage is 91% full", "warning", at()),
        createProgress("Indexing report.pdf", 0.6, at()),
        user("Is it uploaded yet?"),
      ],
    },
    {
      id: "notifications-visible",
      title: "Example: notifications sent to the model as user text",
      lesson:
        'The same facts under the "as user text" policy: each reaches the model as a [Notification] user message.',
      facts: [
        user("Summarise the report when it is uploaded."),
        createNotification("Upload finished: report.pdf (2.1 MB)", "info", at()),
        createNotification("Storage is 91% full", "warning", at()),
        user("Is it uploaded yet?"),
      ],
      policies: { notification: "userText" },
    },
    {
      id: "approvals",
      title: "Example: an approval trail",
      lesson:
        "Approval requests stay in the facts as an audit trail and are hidden from the model; the gated call's result tells the model what happened.",
      facts: [
        user("Save a note: ship on Friday"),
        reply("Calling `save_note`.", [
          {
            type: "toolCall",
            id: "example_call_1",
            name: "save_note",
            arguments: { text: "ship on Friday" },
          },
        ]),
        {
          ...createApprovalRequest(
            {
              action: "Run save_note",
              subject: '{"text":"ship on Friday"}',
              toolCallId: "example_call_1",
              toolName: "save_note",
              toolArgs: { text: "ship on Friday" },
            },
            at(),
          ),
          status: "rejected",
          decidedAt: at(),
          reason: "we never ship on Fridays",
        },
        {
          role: "toolResult",
          toolCallId: "example_call_1",
          toolName: "save_note",
          content: [
            {
              type: "text",
              text: rejectionText("save_note", "we never ship on Fridays"),
            },
          ],
          isError: true,
          timestamp: at(),
        },
        reply("Understood, I did not save it."),
        {
          ...createApprovalRequest({ action: "Deploy to production", subject: "release 2.4.0" }, at()),
          status: "approved",
          decidedAt: at(),
        },
        createApprovalRequest({ action: "Delete the staging database", subject: "staging-eu-1" }, at()),
      ],
    },
    {
      id: "custom-hidden",
      title: "Example: a custom message with display: false",
      lesson:
        "An extension's custom message is always sent to the model, even when the chat does not display it.",
      facts: [
        user("What is on my calendar?"),
        createCustomMessage(
          "calendar-context",
          "Calendar today: 10:00 stand-up, 14:00 design review.",
          false,
          { source: "calendar extension", events: 2 },
          at(),
        ),
        createCustomMessage("banner", "Connected to your calendar.", true, undefined, at()),
        reply("You have the stand-up at 10:00 and a design review at 14:00."),
      ],
    },
  ];
}

/** The settings an example session starts with: the defaults, with the example's policies. */
export function exampleSettings(example: Example): SessionSettings {
  const settings = defaultSettings();
  return {
    ...settings,
    context: { ...settings.context, policies: { ...DEFAULT_POLICIES, ...example.policies } },
  };
}

/**
 * The example as session entries, after the given leading facts (the system message): one path, with the
 * example's compaction entry where it belongs.
 */
export function exampleEntries(example: Example, leading: readonly AgentMessage[]): SessionEntry[] {
  const offset = leading.length;
  const entries: SessionEntry[] = chainEntries([...leading, ...example.facts], null);
  const compaction = example.compaction;
  if (!compaction) return entries;
  const after = entries[offset + compaction.after];
  const kept = entries[offset + compaction.keepFrom];
  if (!after || !kept) return entries;
  // As pi's compaction does, the entry records the prompt and tools in force, so the model keeps them.
  const system = leading.find((message) => message.role === "system");
  const timestamp = at();
  const entry: SessionEntry = {
    type: "compaction",
    id: "compaction",
    parentId: after.id,
    timestamp: new Date(timestamp).toISOString(),
    summary: compaction.summary,
    firstKeptEntryId: kept.id,
    tokensBefore: compaction.tokensBefore,
    ...(system?.role === "system" ? { systemMessage: { ...system, timestamp } } : {}),
  };
  const rest = entries.slice(offset + compaction.after + 1);
  const [next] = rest;
  return [
    ...entries.slice(0, offset + compaction.after + 1),
    entry,
    ...(next ? [{ ...next, parentId: entry.id }, ...rest.slice(1)] : []),
  ];
}
