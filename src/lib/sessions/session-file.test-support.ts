import {
  createApprovalRequest,
  createBashExecution,
  createNotification,
  createUserMessage,
} from "../messages/factories.ts";
import { chainEntries, type SessionEntry } from "../messages/entries.ts";
import { defaultSettings } from "../agent/session-settings.ts";
import type { NewCall } from "../storage/records.ts";
import { zeroUsage } from "../../shared/usage.ts";
import type { SessionSnapshot } from "./export-format.ts";

/** A session to export and import again, for the tests of session files. */

export const settings = {
  ...defaultSettings(),
  thinkingLevel: "high" as const,
  context: { ...defaultSettings().context, applyCompaction: false },
};
export const messages = [
  { role: "system" as const, content: "prompt", timestamp: 0 },
  createUserMessage("hello", 1),
  createNotification("n", "warning", 2),
  createBashExecution(
    { command: "ls", output: "a", exitCode: undefined, cancelled: false, truncated: false },
    3,
  ),
  { ...createApprovalRequest({ action: "Deploy" }, 4), status: "approved" as const, decidedAt: 5 },
];

/** A tree: the facts above as one branch, a second branch from the user message, an unknown entry. */
function tree(): SessionEntry[] {
  const main = chainEntries(messages, null);
  const [, hello] = main;
  if (!hello) throw new Error("no entries");
  const side = chainEntries([createUserMessage("another way", 6)], hello.id, (id) =>
    main.some((entry) => entry.id === id),
  );
  const later: SessionEntry = {
    type: "unknown",
    id: "later001",
    parentId: side[0]?.id ?? null,
    timestamp: "2026-01-01T00:00:00.000Z",
    original: {
      type: "checkpoint",
      id: "later001",
      parentId: side[0]?.id ?? null,
      timestamp: "2026-01-01T00:00:00.000Z",
      files: [],
    },
  };
  return [...main, ...side, later];
}

export const call: NewCall = {
  summary: {
    id: "call-1",
    startedAt: 10,
    provider: "mirror",
    modelId: "mirror",
    api: "mirror",
    options: { reasoning: "high" },
    messageCount: 2,
    leafId: null,
    outcome: { stopReason: "stop", usage: zeroUsage() },
    timing: { durationMs: 12 },
    capture: { messages: "all", payload: "none" },
  },
  body: {
    messages: { kept: "all", value: [{ role: "user", content: "hello", timestamp: 1 }], bytes: 50 },
    sources: ["x"],
    payload: { kept: "none", bytes: 0, reason: "the proxy did not report it" },
  },
};

export function snapshot(overrides: Partial<SessionSnapshot> = {}): SessionSnapshot {
  const entries = tree();
  return {
    id: "session-1",
    title: "My session",
    titleIsCustom: true,
    createdAt: 0,
    settings,
    entries,
    // The tip of the first branch: not the last entry.
    leafId: entries[messages.length - 1]?.id ?? null,
    calls: [call],
    ...overrides,
  };
}
