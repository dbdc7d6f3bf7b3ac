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
  resetLeaf(): void;
  getEntries(): unknown[];
  getLeafId(): string | null;
  getHeader(): unknown;
  getSessionFile(): string | undefined;
  getSessionName(): string | undefined;
  getLabel(id: string): string | undefined;
  getBranch(fromId?: string): { id: string }[];
  buildSessionContext(): { messages: AgentMessage[]; thinkingLevel: string; model: unknown };
}

export interface PiSessionModule {
  SessionManager: {
    inMemory(cwd?: string, options?: undefined, entries?: unknown[]): PiSessionManager;
    create(cwd: string, sessionDir?: string): PiSessionManager;
    open(path: string, sessionDir?: string, cwdOverride?: string): PiSessionManager;
  };
  buildSessionContext(
    entries: unknown[],
    leafId?: string | null,
  ): { messages: AgentMessage[]; thinkingLevel: string; model: unknown };
  /** The context with each message's source entry. */
  buildSessionProjection(
    entries: unknown[],
    leafId?: string | null,
  ): { entries: { sourceEntry: Record<string, unknown>; messages: AgentMessage[] }[] };
  parseSessionEntries(content: string): unknown[];
  /** pi's v1 → v3 migrations, in place. */
  migrateSessionEntries(entries: unknown[]): void;
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

interface TreeBuilder {
  name: string;
  build: (manager: PiSessionManager) => void;
  /**
   * Lines a later pi may write (entry types this version does not know), appended after the built entries:
   * written to the file as they are, or loaded with the entries for a tree in memory.
   */
  extraLines?: (manager: PiSessionManager) => Record<string, unknown>[];
}

const CWD = "/tmp/pi-playground-tests";

function tree({ name, build, extraLines }: TreeBuilder): PiTree {
  let manager = piSession.SessionManager.inMemory(CWD);
  build(manager);
  const extra = extraLines?.(manager) ?? [];
  if (extra.length > 0)
    manager = piSession.SessionManager.inMemory(CWD, undefined, [
      manager.getHeader(),
      ...manager.getEntries(),
      ...extra,
    ]);
  return { name, manager, entries: manager.getEntries() as SessionEntry[], leafId: manager.getLeafId() };
}

/** Trees that exercise every rule of pi's session context. */
export function piTrees(): PiTree[] {
  return treeBuilders().map(tree);
}

export interface PiTreeFile {
  name: string;
  /** A real session file, written by pi's own SessionManager. */
  path: string;
}

/**
 * The same trees as real files: each built by pi's `SessionManager` persisting to `dir`, which writes the
 * file as pi does (header and entries, appended as they come); extra lines are appended to the file.
 */
export async function writePiTreeFiles(dir: string): Promise<PiTreeFile[]> {
  const { appendFileSync } = await import("node:fs");
  return treeBuilders().map(({ name, build, extraLines }) => {
    const manager = piSession.SessionManager.create(CWD, dir);
    build(manager);
    const path = manager.getSessionFile();
    if (!path) throw new Error(`pi wrote no file for "${name}"`);
    for (const line of extraLines?.(manager) ?? []) appendFileSync(path, `${JSON.stringify(line)}\n`);
    return { name, path };
  });
}

function treeBuilders(): TreeBuilder[] {
  const builder = (
    name: string,
    build: TreeBuilder["build"],
    extraLines?: TreeBuilder["extraLines"],
  ): TreeBuilder => ({
    name,
    build,
    ...(extraLines ? { extraLines } : {}),
  });
  return [
    builder("a straight conversation with model and thinking changes", (m) => {
      m.appendMessage(system("You are terse."));
      m.appendModelChange("anthropic", "claude-test");
      m.appendThinkingLevelChange("high");
      m.appendMessage(user("one"));
      m.appendMessage(reply("two"));
      m.appendSessionInfo("A named session");
      m.appendCustomEntry("ext-state", { x: 1 });
      m.appendMessage(user("three"));
    }),
    builder("an abandoned branch and a branch summary", (m) => {
      m.appendMessage(system("prompt"));
      const first = m.appendMessage(user("first question"));
      m.appendMessage(reply("first answer"));
      m.appendMessage(user("abandoned follow-up"));
      m.appendMessage(reply("abandoned answer"));
      m.branchWithSummary(first, "Tried the follow-up; it went nowhere.");
      m.appendMessage(user("second question"));
    }),
    builder("nested branches, the leaf on the inner one", (m) => {
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
    builder("a compaction with a kept tail", (m) => {
      m.appendMessage(system("prompt"));
      m.appendMessage(user("old 1"));
      m.appendMessage(reply("old 2"));
      const kept = m.appendMessage(user("kept 1"));
      m.appendMessage(reply("kept 2"));
      m.appendCompaction("The user asked old things.", kept, 12_345);
      m.appendMessage(user("after compaction"));
      m.appendMessage(reply("answer after"));
    }),
    builder("two compactions, the older inside the newer's kept range", (m) => {
      m.appendMessage(system("prompt"));
      m.appendMessage(user("very old"));
      const keptOld = m.appendMessage(reply("kept by the first"));
      m.appendCompaction("First summary.", keptOld, 100);
      const keptNew = m.appendMessage(user("kept by the second"));
      m.appendCompaction("Second summary.", keptNew, 200);
      m.appendMessage(user("latest"));
    }),
    builder("context edits: replaced, omitted, edited twice, and a tool result", (m) => {
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
    builder("labels, custom messages and an edit compacted away", (m) => {
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
    builder("model and thinking changed on an abandoned branch", (m) => {
      m.appendMessage(system("prompt"));
      m.appendMessage(user("question"));
      const answer = m.appendMessage(reply("answer"));
      m.appendModelChange("openai", "gpt-test");
      m.appendThinkingLevelChange("high");
      m.appendMessage(user("on the abandoned branch"));
      m.appendMessage(reply("from the other model", { provider: "openai", model: "gpt-test" }));
      m.branch(answer);
      m.appendThinkingLevelChange("low");
      m.appendMessage(user("back on the first branch"));
    }),
    builder("a compaction on an abandoned branch, the leaf on the other", (m) => {
      m.appendMessage(system("prompt"));
      const first = m.appendMessage(user("first"));
      const kept = m.appendMessage(reply("kept if compacted"));
      m.appendMessage(user("more"));
      m.appendCompaction("Compacted on the branch left behind.", kept, 300);
      m.appendMessage(user("after that compaction"));
      m.branch(first);
      m.appendMessage(reply("another answer to first"));
      m.appendMessage(user("the leaf's branch"));
    }),
    builder(
      "entry types a later pi writes, a label set and cleared, a session renamed twice",
      (m) => {
        m.appendMessage(system("prompt"));
        const question = m.appendMessage(user("question"));
        m.appendLabelChange(question, "bookmark");
        m.appendSessionInfo("First name");
        m.appendMessage(reply("answer"));
        m.appendLabelChange(question, undefined);
        m.appendSessionInfo("  Second name  ");
        m.appendMessage(user("next"));
      },
      (m) => [
        {
          type: "checkpoint",
          id: "c0ffee01",
          parentId: m.getLeafId(),
          timestamp: "2026-01-01T00:00:00.000Z",
          files: ["a.ts"],
        },
        {
          type: "checkpoint",
          id: "c0ffee02",
          parentId: "c0ffee01",
          timestamp: "2026-01-01T00:00:01.000Z",
          files: [],
        },
      ],
    ),
  ];
}
