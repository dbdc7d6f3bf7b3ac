import fc from "fast-check";
import { vi } from "vitest";
import { piSession } from "../model-view/pi-sessions.test-support.ts";
import {
  assistantMessage,
  bashExecutionMessage,
  customMessage,
  shortText,
  systemMessage,
  textBlock,
  toolResultMessage,
  userMessage,
} from "../messages/pi-message.arbitraries.test-support.ts";

/**
 * Random pi session files for conformance fuzzing: a program of the operations pi's coding agent performs
 * on a session (messages of every role it writes, tool turns, model and thinking changes, compactions,
 * branch summaries, extension entries and messages, context edits, labels, names, usage, moves of the
 * leaf), run by pi's own `SessionManager`, which writes the entries; then mutations of the file it wrote
 * (the odd values hand-edited files, older versions, extensions and OpenAI-compatible servers bring).
 *
 * Runs are reproducible: pi's entry ids are random, so they are renamed in order of creation, and the
 * clock pi reads is fixed per operation.
 */

const CWD = "/tmp/pi-playground-fuzz";
const CLOCK_START = Date.parse("2026-01-01T00:00:00.000Z");

type Json = Record<string, unknown>;

/** One operation on a session; `pick` chooses among the entries the operation may apply to. */
export type SessionOp =
  | { op: "message"; message: Json }
  | { op: "toolTurn"; calls: number; results: Json[]; reply: Json }
  | { op: "model"; provider: string; modelId: string }
  | { op: "thinking"; level: string }
  | { op: "compaction"; summary: string; keep: number | null; tokensBefore: number }
  | { op: "custom"; customType: string; data: unknown }
  | { op: "name"; name: string }
  | { op: "customMessage"; customType: string; content: unknown; display: boolean; details: unknown }
  | { op: "edit"; pick: number; replacement: { content: unknown } | null }
  | { op: "label"; pick: number; label: string | undefined }
  | { op: "branch"; pick: number }
  | { op: "branchSummary"; pick: number | null; summary: string }
  | { op: "reset" }
  | { op: "usage"; kind: string; usage: Json };

/** The entry types a program makes pi write (message roles counted apart in the statistics). */
export const PROGRAM_ENTRY_TYPES = [
  "message",
  "thinking_level_change",
  "model_change",
  "usage",
  "compaction",
  "branch_summary",
  "custom",
  "label",
  "session_info",
  "custom_message",
  "context_edit",
] as const;

const wellFormedUsage = fc.record({
  input: fc.nat(1000),
  output: fc.nat(1000),
  cacheRead: fc.nat(100),
  cacheWrite: fc.nat(100),
  totalTokens: fc.nat(2000),
  cost: fc.record({
    input: fc.constant(0.001),
    output: fc.constant(0.002),
    cacheRead: fc.constant(0),
    cacheWrite: fc.constant(0),
    total: fc.constant(0.003),
  }),
});

/** Messages as pi writes them: well formed (the odd values come from the mutations). */
const wellFormedAssistant = assistantMessage.map((message) => ({
  ...message,
  content: Array.isArray(message.content) ? message.content.filter((block) => block != null) : [],
  stopReason: ["stop", "length", "toolUse", "error", "aborted"].includes(message.stopReason as string)
    ? message.stopReason
    : "stop",
  timestamp: message.timestamp ?? 1,
}));
const withTime = (message: Json) => ({ ...message, timestamp: message.timestamp ?? 1 });

const messageOp = fc
  .oneof(
    { weight: 5, arbitrary: userMessage.map(withTime) },
    { weight: 5, arbitrary: wellFormedAssistant },
    { weight: 1, arbitrary: systemMessage.map(withTime) },
    { weight: 2, arbitrary: bashExecutionMessage.map(withTime) },
    { weight: 1, arbitrary: customMessage.map(withTime) },
  )
  .map((message): SessionOp => ({ op: "message", message }));

const opArbitrary: fc.Arbitrary<SessionOp> = fc.oneof(
  { weight: 10, arbitrary: messageOp },
  {
    weight: 3,
    arbitrary: fc
      .record({
        calls: fc.integer({ min: 1, max: 2 }),
        results: fc.array(toolResultMessage.map(withTime), { minLength: 2, maxLength: 2 }),
        reply: wellFormedAssistant,
      })
      .map((turn): SessionOp => ({ op: "toolTurn", ...turn })),
  },
  {
    weight: 1,
    arbitrary: fc
      .record({
        provider: fc.constantFrom("anthropic", "openai"),
        modelId: fc.constantFrom("claude-test", "gpt-test"),
      })
      .map((fields): SessionOp => ({ op: "model", ...fields })),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom("off", "low", "medium", "high")
      .map((level): SessionOp => ({ op: "thinking", level })),
  },
  {
    weight: 2,
    arbitrary: fc
      .record({
        summary: shortText,
        keep: fc.option(fc.nat(), { nil: null }),
        tokensBefore: fc.nat(200_000),
      })
      .map((fields): SessionOp => ({ op: "compaction", ...fields })),
  },
  {
    weight: 1,
    arbitrary: fc
      .record({
        customType: fc.constantFrom("ext-state", "todo"),
        data: fc.option(fc.record({ n: fc.nat(9) })),
      })
      .map((fields): SessionOp => ({
        op: "custom",
        customType: fields.customType,
        data: fields.data ?? undefined,
      })),
  },
  { weight: 1, arbitrary: shortText.map((name): SessionOp => ({ op: "name", name })) },
  {
    weight: 2,
    arbitrary: fc
      .record({
        customType: fc.constantFrom("reminder", "note"),
        content: fc.oneof(shortText, fc.array(textBlock, { maxLength: 2 })),
        display: fc.boolean(),
        details: fc.option(fc.record({ source: shortText }), { nil: undefined }),
      })
      .map((fields): SessionOp => ({ op: "customMessage", ...fields })),
  },
  {
    weight: 2,
    arbitrary: fc
      .record({
        pick: fc.nat(),
        replacement: fc.option(
          fc.record({ content: fc.oneof(shortText, fc.array(textBlock, { maxLength: 2 })) }),
          { nil: null },
        ),
      })
      .map((fields): SessionOp => ({ op: "edit", ...fields })),
  },
  {
    weight: 2,
    arbitrary: fc
      .record({
        pick: fc.nat(),
        label: fc.option(fc.constantFrom("start", "bookmark", ""), { nil: undefined }),
      })
      .map((fields): SessionOp => ({ op: "label", ...fields })),
  },
  { weight: 2, arbitrary: fc.nat().map((pick): SessionOp => ({ op: "branch", pick })) },
  {
    weight: 1,
    arbitrary: fc
      .record({ pick: fc.option(fc.nat(), { nil: null }), summary: fc.oneof(shortText, fc.constant("")) })
      .map((fields): SessionOp => ({ op: "branchSummary", ...fields })),
  },
  { weight: 1, arbitrary: fc.constant<SessionOp>({ op: "reset" }) },
  {
    weight: 1,
    arbitrary: fc
      .record({ kind: fc.constantFrom("compaction", "branch_summary"), usage: wellFormedUsage })
      .map((fields): SessionOp => ({ op: "usage", ...fields })),
  },
);

export const sessionProgram = fc.array(opArbitrary, { minLength: 1, maxLength: 30 });

interface Manager {
  appendMessage(message: unknown): string;
  appendThinkingLevelChange(level: string): string;
  appendModelChange(provider: string, modelId: string): string;
  appendCompaction(summary: string, firstKeptEntryId: string | undefined, tokensBefore: number): string;
  appendCustomEntry(customType: string, data?: unknown): string;
  appendSessionInfo(name: string): string;
  appendCustomMessageEntry(customType: string, content: unknown, display: boolean, details?: unknown): string;
  appendContextEdit(targetId: string, replacement: { content: unknown } | null): string;
  appendLabelChange(targetId: string, label: string | undefined): string;
  appendUsage(kind: string, provider: string, model: string, usage: unknown): unknown;
  branch(fromId: string): void;
  branchWithSummary(fromId: string | null, summary: string): string;
  resetLeaf(): void;
  getEntries(): Json[];
  getBranch(): Json[];
  getHeader(): Json;
}

const pickFrom = <T>(list: readonly T[], pick: number): T | undefined =>
  list.length === 0 ? undefined : list[pick % list.length];

function editable(entry: Json): boolean {
  if (entry.type === "custom_message") return true;
  const role = (entry.message as Json | undefined)?.role;
  return entry.type === "message" && (role === "user" || role === "assistant" || role === "toolResult");
}

function run(manager: Manager, op: SessionOp, index: number): void {
  switch (op.op) {
    case "message":
      manager.appendMessage(op.message);
      return;
    case "toolTurn": {
      const ids = Array.from({ length: op.calls }, (_, call) => `call_${index}_${call}`);
      manager.appendMessage({
        ...op.reply,
        content: ids.map((id) => ({
          type: "toolCall",
          id,
          name: "calculate",
          arguments: { expression: "1+1" },
        })),
        stopReason: "toolUse",
      });
      ids.forEach((id, call) => manager.appendMessage({ ...op.results[call], toolCallId: id }));
      return;
    }
    case "model":
      manager.appendModelChange(op.provider, op.modelId);
      return;
    case "thinking":
      manager.appendThinkingLevelChange(op.level);
      return;
    case "compaction": {
      const keep = op.keep === null ? undefined : pickFrom(manager.getBranch(), op.keep);
      manager.appendCompaction(op.summary, keep?.id as string | undefined, op.tokensBefore);
      return;
    }
    case "custom":
      manager.appendCustomEntry(op.customType, op.data);
      return;
    case "name":
      manager.appendSessionInfo(op.name);
      return;
    case "customMessage":
      manager.appendCustomMessageEntry(op.customType, op.content, op.display, op.details);
      return;
    case "edit": {
      const target = pickFrom(manager.getBranch().filter(editable), op.pick);
      if (target) manager.appendContextEdit(target.id as string, op.replacement);
      return;
    }
    case "label": {
      const target = pickFrom(manager.getEntries(), op.pick);
      if (target) manager.appendLabelChange(target.id as string, op.label);
      return;
    }
    case "branch": {
      const target = pickFrom(manager.getEntries(), op.pick);
      if (target) manager.branch(target.id as string);
      return;
    }
    case "branchSummary": {
      const target = op.pick === null ? undefined : pickFrom(manager.getEntries(), op.pick);
      manager.branchWithSummary((target?.id as string | undefined) ?? null, op.summary);
      return;
    }
    case "reset":
      manager.resetLeaf();
      return;
    case "usage":
      manager.appendUsage(op.kind, "anthropic", "claude-test", op.usage);
      return;
  }
}

/** The fields of pi's entries that hold entry ids. */
const ID_FIELDS = ["id", "parentId", "targetId", "firstKeptEntryId", "fromId"] as const;

/**
 * Run a program with pi's SessionManager and return the file it describes: the header and the entries,
 * as parsed JSON values (pi writes each as one `JSON.stringify` line). Ids are renamed `e0000001`, … in
 * order of creation, and every clock reading is fixed, so the same program always gives the same file.
 */
export function writeWithPi(program: readonly SessionOp[]): Json[] {
  vi.useFakeTimers({ toFake: ["Date"] });
  try {
    vi.setSystemTime(CLOCK_START);
    const manager = piSession.SessionManager.inMemory(CWD) as unknown as Manager;
    program.forEach((op, index) => {
      vi.setSystemTime(CLOCK_START + (index + 1) * 1_000);
      run(manager, op, index);
    });
    const values = JSON.parse(JSON.stringify([manager.getHeader(), ...manager.getEntries()])) as Json[];
    const renamed = new Map<string, string>();
    values.slice(1).forEach((entry, index) => {
      renamed.set(entry.id as string, `e${String(index + 1).padStart(7, "0")}`);
    });
    for (const entry of values.slice(1))
      for (const field of ID_FIELDS) {
        const value = entry[field];
        if (typeof value === "string" && renamed.has(value)) entry[field] = renamed.get(value);
      }
    values[0] = { ...values[0], id: "fuzz-session", timestamp: new Date(CLOCK_START).toISOString() };
    return values;
  } finally {
    vi.useRealTimers();
  }
}

/** A line of a file that is not JSON (or not meant to be parsed): written as it is. */
export class RawLine {
  constructor(readonly text: string) {}
}

/** A file's lines: parsed values, or raw text. */
export type FileLine = Json | RawLine;

export function fileText(lines: readonly FileLine[]): string {
  return `${lines.map((line) => (line instanceof RawLine ? line.text : JSON.stringify(line))).join("\n")}\n`;
}

// --- mutations ---------------------------------------------------------------------------------------------

/**
 * A change to a file pi wrote, as files in the wild have them. `kept`: pi reads it and so must the
 * playground, to the same model view at every leaf. `refused`: a value whose shape the page cannot show
 * (pi passes it on unchecked); the import names its line and keeps the entry as it was without sending it.
 * `apply` changes the lines in place and says whether it found something to change.
 */
export interface Mutation {
  name: string;
  fate: "kept" | "refused";
  apply(lines: FileLine[], pick: number): boolean;
}

const isEntry = (line: FileLine | undefined): line is Json =>
  line !== undefined && !(line instanceof RawLine);
const entriesOf = (lines: FileLine[]): Json[] => lines.slice(1).filter(isEntry);
const messageOf = (entry: Json): Json | undefined =>
  entry.type === "message" && typeof entry.message === "object" && entry.message !== null
    ? (entry.message as Json)
    : undefined;
function messagesWith(lines: FileLine[], roles: readonly string[]): Json[] {
  return entriesOf(lines).flatMap((entry) => {
    const message = messageOf(entry);
    return message && roles.includes(message.role as string) ? [message] : [];
  });
}
function change<T>(list: T[], pick: number, apply: (item: T) => void): boolean {
  const item = pickFrom(list, pick);
  if (item === undefined) return false;
  apply(item);
  return true;
}
const CONTENT_ROLES = ["system", "user", "assistant", "toolResult"];

export const MUTATIONS: readonly Mutation[] = [
  {
    // pi-ai's openai-completions adapter writes `toolCall.id || ""`: a server that sends no id.
    name: "a tool call and its result with an empty id",
    fate: "kept",
    apply: (lines, pick) =>
      change(messagesWith(lines, ["toolResult"]), pick, (result) => {
        const id = result.toolCallId;
        for (const message of messagesWith(lines, ["assistant"]))
          for (const block of Array.isArray(message.content) ? (message.content as Json[]) : [])
            if (block?.type === "toolCall" && block.id === id) block.id = "";
        result.toolCallId = "";
      }),
  },
  {
    name: "a tool result with an empty tool name",
    fate: "kept",
    apply: (lines, pick) =>
      change(messagesWith(lines, ["toolResult"]), pick, (result) => (result.toolName = "")),
  },
  {
    name: "a bash execution with an empty command",
    fate: "kept",
    apply: (lines, pick) =>
      change(messagesWith(lines, ["bashExecution"]), pick, (message) => (message.command = "")),
  },
  {
    name: "a custom message with an empty customType",
    fate: "kept",
    apply: (lines, pick) =>
      change(
        [
          ...entriesOf(lines).filter((entry) => entry.type === "custom_message"),
          ...messagesWith(lines, ["custom"]),
        ],
        pick,
        (holder) => (holder.customType = ""),
      ),
  },
  {
    name: "a message with a negative timestamp",
    fate: "kept",
    apply: (lines, pick) =>
      change(
        entriesOf(lines).flatMap((entry): Json[] => {
          const message = messageOf(entry);
          return message ? [message] : [];
        }),
        pick,
        (message) => (message.timestamp = -1_000 * (pick + 1)),
      ),
  },
  {
    name: "a message without content",
    fate: "kept",
    apply: (lines, pick) =>
      change(messagesWith(lines, CONTENT_ROLES), pick, (message) => delete message.content),
  },
  {
    name: "a message whose content is null",
    fate: "kept",
    apply: (lines, pick) =>
      change(messagesWith(lines, CONTENT_ROLES), pick, (message) => (message.content = null)),
  },
  {
    name: "an entry without a parentId",
    fate: "kept",
    apply: (lines, pick) =>
      change(
        entriesOf(lines).filter((entry) => entry.parentId !== null),
        pick,
        (entry) => delete entry.parentId,
      ),
  },
  {
    name: "a context edit that leaves a compaction out",
    fate: "kept",
    apply: (lines, pick) =>
      change(
        entriesOf(lines).filter((entry) => entry.type === "compaction"),
        pick,
        (compaction) =>
          lines.push({
            type: "context_edit",
            id: `edit${String(lines.length).padStart(4, "0")}`,
            parentId: compaction.id,
            timestamp: "2026-02-01T00:00:00.000Z",
            targetId: compaction.id,
            replacement: null,
          }),
      ),
  },
  {
    name: "usage without cost",
    fate: "kept",
    apply: (lines, pick) =>
      change(
        [
          ...messagesWith(lines, ["assistant"]),
          ...entriesOf(lines).filter((entry) => entry.type === "usage"),
        ].flatMap((holder) =>
          typeof holder.usage === "object" && holder.usage ? [holder.usage as Json] : [],
        ),
        pick,
        (usage) => delete usage.cost,
      ),
  },
  {
    name: "usage without totalTokens",
    fate: "kept",
    apply: (lines, pick) =>
      change(
        messagesWith(lines, ["assistant"]).flatMap((message) =>
          typeof message.usage === "object" && message.usage ? [message.usage as Json] : [],
        ),
        pick,
        (usage) => delete usage.totalTokens,
      ),
  },
  {
    name: "a content block of an unknown type",
    fate: "kept",
    apply: (lines, pick) =>
      change(
        messagesWith(lines, ["user", "assistant", "toolResult", "custom"]).filter((message) =>
          Array.isArray(message.content),
        ),
        pick,
        (message) => (message.content as unknown[]).push({ type: "video", url: "https://example.com/v.mp4" }),
      ),
  },
  {
    name: "an unknown stop reason",
    fate: "kept",
    apply: (lines, pick) =>
      change(messagesWith(lines, ["assistant"]), pick, (message) => (message.stopReason = "refusal")),
  },
  {
    name: "a compaction without tokensBefore",
    fate: "kept",
    apply: (lines, pick) =>
      change(
        entriesOf(lines).filter((entry) => entry.type === "compaction"),
        pick,
        (entry) => delete entry.tokensBefore,
      ),
  },
  {
    name: "an entry timestamp that is a number",
    fate: "kept",
    apply: (lines, pick) =>
      change(entriesOf(lines), pick, (entry) => (entry.timestamp = Date.parse(entry.timestamp as string))),
  },
  {
    name: "an entry timestamp that is null",
    fate: "kept",
    apply: (lines, pick) => change(entriesOf(lines), pick, (entry) => (entry.timestamp = null)),
  },
  {
    name: "an entry without a timestamp",
    fate: "kept",
    apply: (lines, pick) => change(entriesOf(lines), pick, (entry) => delete entry.timestamp),
  },
  {
    name: "a label cleared with null",
    fate: "kept",
    apply: (lines, pick) =>
      change(
        entriesOf(lines).filter((entry) => entry.type === "label"),
        pick,
        (entry) => (entry.label = null),
      ),
  },
  {
    name: "a session_info without a name",
    fate: "kept",
    apply: (lines, pick) =>
      change(
        entriesOf(lines).filter((entry) => entry.type === "session_info"),
        pick,
        (entry) => delete entry.name,
      ),
  },
  {
    name: "a thinking level this version does not know",
    fate: "kept",
    apply: (lines, pick) =>
      change(
        entriesOf(lines).filter((entry) => entry.type === "thinking_level_change"),
        pick,
        (entry) => (entry.thinkingLevel = "turbo"),
      ),
  },
  {
    name: "an entry of a type a later pi writes",
    fate: "kept",
    apply: (lines, pick) =>
      change(entriesOf(lines), pick, (parent) =>
        lines.splice(1 + (pick % (lines.length - 1)), 0, {
          type: "checkpoint",
          id: `chk${String(lines.length).padStart(5, "0")}`,
          parentId: parent.id,
          timestamp: "2026-02-01T00:00:00.000Z",
          files: ["a.ts"],
        }),
      ),
  },
  {
    name: "a line that is not JSON",
    fate: "kept",
    apply: (lines, pick) => {
      lines.splice(1 + (pick % lines.length), 0, new RawLine('{"type":"message","id":'));
      return true;
    },
  },
  {
    name: "the last entry without an id",
    fate: "kept",
    apply: (lines) => {
      const last = lines.at(-1);
      if (!isEntry(last) || lines.length < 2) return false;
      delete last.id;
      return true;
    },
  },
  {
    name: "assistant content that is not a list",
    fate: "refused",
    apply: (lines, pick) =>
      change(messagesWith(lines, ["assistant"]), pick, (message) => (message.content = "plain text")),
  },
  {
    name: "a content list holding null",
    fate: "refused",
    apply: (lines, pick) =>
      change(
        messagesWith(lines, ["user", "assistant", "toolResult"]).filter((message) =>
          Array.isArray(message.content),
        ),
        pick,
        (message) => (message.content as unknown[]).unshift(null),
      ),
  },
];

/** Up to four mutations of a file; every kind as likely as any other (fast-check favours small numbers). */
export const mutationList = fc.array(
  fc.record({ mutation: fc.noBias(fc.nat(MUTATIONS.length - 1)), pick: fc.nat() }),
  { maxLength: 4 },
);
