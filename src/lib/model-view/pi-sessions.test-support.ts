import type { AgentMessage } from "@earendil-works/pi-agent-core";
import type { AssistantMessage, Message } from "@earendil-works/pi-ai";
import type { SessionEntry } from "../messages/entries.ts";
import { zeroUsage } from "../../shared/usage.ts";

/**
 * pi's coding agent 1.6.0 session code, loaded from its published files (its package exports only the CLI
 * entry), and a set of session trees built with its own `SessionManager`: the reference the playground's
 * session projection, import and export are checked against.
 */
interface PiSessionManager {
  appendMessage(message: unknown): string;
  appendThinkingLevelChange(level: string): string;
  appendModelChange(provider: string, modelId: string): string;
  appendCompaction(summary: string, firstKeptEntryId: string | undefined, tokensBefore: number): string;
  appendCustomEntry(customType: string, data?: unknown): string;
  appendSessionInfo(name: string): string;
  appendCustomMessageEntry(customType: string, content: unknown, display: boolean, details?: unknown): string;
  appendContextEdit(targetId: string, replacement: { content: unknown } | null): string;
  appendLabelChange(targetId: string, label: string | undefined): string;
  branch(fromId: string): void;
  branchWithSummary(fromId: string, summary: string): string;
  getEntries(): unknown[];
  getLeafId(): string | null;
  getHeader(): unknown;
  buildSessionContext(): { messages: AgentMessage[]; thinkingLevel: string; model: unknown };
}

export interface PiSessionModule {
  SessionManager: {
    inMemory(cwd?: string): PiSessionManager;
    open(path: string, sessionDir?: string, cwdOverride?: string): PiSessionManager;
  };
  buildSessionContext(
    entries: unknown[],
    leafId?: string | null,
  ): { messages: AgentMessage[]; thinkingLevel: string; model: unknown };
  parseSessionEntries(content: string): unknown[];
}

export const piSession = (await import(
  new URL(
    "../../../node_modules/@earendil-works/pi-coding-agent/dist/core/session-manager.js",
    import.meta.url,
  ).href
)) as PiSessionModule;

export const piMessages = (await import(
  new URL("../../../node_modules/@earendil-works/pi-coding-agent/dist/core/messages.js", import.meta.url).href
)) as { convertToLlm: (messages: unknown[]) => Message[] };

let clock = 1_000;
const at = () => (clock += 1_000);

export const user = (text: string): AgentMessage => ({ role: "user", content: text, timestamp: at() });
export const reply = (text: string, extra: Partial<AssistantMessage> = {}): AgentMessage => ({
  role: "assistant",
  content: [{ type: "text", text }],
  api: "anthropic-messages",
  provider: "anthropic",
  model: "claude-test",
  usage: zeroUsage(),
  stopReason: "stop",
  timestamp: at(),
  ...extra,
});
const toolCall = (id: string): AgentMessage => ({
  role: "assistant",
  content: [{ type: "toolCall", id, name: "calculate", arguments: { expression: "1+1" } }],
  api: "anthropic-messages",
  provider: "anthropic",
  model: "claude-test",
  usage: zeroUsage(),
  stopReason: "toolUse",
  timestamp: at(),
});
const toolResult = (id: string, text: string): AgentMessage => ({
  role: "toolResult",
  toolCallId: id,
  toolName: "calculate",
  content: [{ type: "text", text }],
  isError: false,
  timestamp: at(),
});
const system = (text: string): AgentMessage => ({ role: "system", content: text, timestamp: at() });

export interface PiTree {
  name: string;
  manager: PiSessionManager;
  entries: SessionEntry[];
  leafId: string | null;
}

function tree(name: string, build: (manager: PiSessionManager) => void): PiTree {
  const manager = piSession.SessionManager.inMemory("/tmp/pi-playground-tests");
  build(manager);
  return { name, manager, entries: manager.getEntries() as SessionEntry[], leafId: manager.getLeafId() };
}

/** Trees that exercise every rule of pi's session context. */
export function piTrees(): PiTree[] {
  return [
    tree("a straight conversation with model and thinking changes", (m) => {
      m.appendMessage(system("You are terse."));
      m.appendModelChange("anthropic", "claude-test");
      m.appendThinkingLevelChange("high");
      m.appendMessage(user("one"));
      m.appendMessage(reply("two"));
      m.appendSessionInfo("A named session");
      m.appendCustomEntry("ext-state", { x: 1 });
      m.appendMessage(user("three"));
    }),
    tree("an abandoned branch and a branch summary", (m) => {
      m.appendMessage(system("prompt"));
      const first = m.appendMessage(user("first question"));
      m.appendMessage(reply("first answer"));
      m.appendMessage(user("abandoned follow-up"));
      m.appendMessage(reply("abandoned answer"));
      m.branchWithSummary(first, "Tried the follow-up; it went nowhere.");
      m.appendMessage(user("second question"));
    }),
    tree("nested branches, the leaf on the inner one", (m) => {
      m.appendMessage(system("prompt"));
      const root = m.appendMessage(user("root"));
      const a = m.appendMessage(reply("a"));
      m.appendMessage(user("a1"));
      m.branch(a);
      const b = m.appendMessage(user("b1"));
      m.appendMessage(reply("b1 answer"));
      m.branch(b);
      m.appendMessage(reply("b1 other answer"));
      m.branch(root);
      m.appendMessage(reply("root other answer"));
      m.branch(b);
      m.appendMessage(reply("b1 third answer"));
    }),
    tree("a compaction with a kept tail", (m) => {
      m.appendMessage(system("prompt"));
      m.appendMessage(user("old 1"));
      m.appendMessage(reply("old 2"));
      const kept = m.appendMessage(user("kept 1"));
      m.appendMessage(reply("kept 2"));
      m.appendCompaction("The user asked old things.", kept, 12_345);
      m.appendMessage(user("after compaction"));
      m.appendMessage(reply("answer after"));
    }),
    tree("two compactions, the older inside the newer's kept range", (m) => {
      m.appendMessage(system("prompt"));
      m.appendMessage(user("very old"));
      const keptOld = m.appendMessage(reply("kept by the first"));
      m.appendCompaction("First summary.", keptOld, 100);
      const keptNew = m.appendMessage(user("kept by the second"));
      m.appendCompaction("Second summary.", keptNew, 200);
      m.appendMessage(user("latest"));
    }),
    tree("context edits: replaced, omitted, edited twice, and a tool result", (m) => {
      m.appendMessage(system("prompt"));
      const question = m.appendMessage(user("a long question with a secret"));
      const answer = m.appendMessage(reply("an answer to edit"));
      m.appendMessage(toolCall("call-1"));
      const result = m.appendMessage(toolResult("call-1", "2"));
      const failed = m.appendMessage(reply("", { stopReason: "error", errorMessage: "overloaded" }));
      m.appendContextEdit(question, { content: "a short question" });
      m.appendContextEdit(answer, { content: "an edited answer" });
      m.appendContextEdit(answer, { content: "the answer, edited again" });
      m.appendContextEdit(result, { content: "2 (rounded)" });
      m.appendContextEdit(failed, null);
      m.appendMessage(user("go on"));
    }),
    tree("labels, custom messages and an edit compacted away", (m) => {
      m.appendMessage(system("prompt"));
      const one = m.appendMessage(user("one"));
      m.appendLabelChange(one, "start");
      m.appendContextEdit(one, { content: "one, edited before the compaction" });
      m.appendCustomMessageEntry("reminder", "remember the milk", true, { source: "test" });
      const kept = m.appendMessage(reply("kept"));
      m.appendCompaction("Earlier: one.", kept, 50);
      m.appendCustomMessageEntry("note", [{ type: "text", text: "after" }], false);
      m.appendMessage(user("end"));
    }),
  ];
}
