import { describe, expect, it } from "vitest";
import { convertToLlm } from "../messages/convert.ts";
import { pathTo } from "../messages/entries.ts";
import { projectSession } from "../model-view/session-projection.ts";
import { zeroUsage } from "../../shared/usage.ts";
import { createSystemFact } from "../agent/new-session.ts";
import { exportSession } from "./export-format.ts";
import { formatProblems } from "./import-problems.ts";
import { planImport } from "./import-session.ts";
import {
  MUTATIONS,
  writeWithPi,
  type FileLine,
  type SessionOp,
} from "./pi-session.arbitraries.test-support.ts";
import { expectReadAsPi, openWithPi } from "./pi-reading.test-support.ts";

/**
 * Files pi reads but did not write that way (hand-edited, older, written by extensions or by servers
 * pi-ai talks to): each odd value on its own, in a session pi's SessionManager wrote, read by the
 * playground as pi reads it — compared at every leaf with pi's own reading, exported so that pi reads the
 * same (see pi-reading.test-support.ts) — and what it means for the session, checked on its own.
 */

type Json = Record<string, unknown>;

const user = (text: string, timestamp = 1_000): Json => ({ role: "user", content: text, timestamp });
const reply = (text: string, extra: Json = {}): Json => ({
  role: "assistant",
  content: [{ type: "text", text }],
  api: "openai-completions",
  provider: "local",
  model: "served-model",
  usage: zeroUsage(),
  stopReason: "stop",
  timestamp: 2_000,
  ...extra,
});
const toolResult = {
  role: "toolResult",
  toolName: "bash",
  content: [{ type: "text", text: "ok" }],
  isError: false,
  timestamp: 1_500,
};

/** A session with a tool call and its result, a bash execution, an extension message and a compaction. */
const SESSION: SessionOp[] = [
  { op: "message", message: { role: "system", content: "prompt", timestamp: 0 } },
  { op: "message", message: user("list the files") },
  { op: "toolTurn", calls: 1, results: [toolResult, toolResult], reply: reply("") },
  { op: "message", message: reply("two files") },
  {
    op: "message",
    message: {
      role: "bashExecution",
      command: "ls",
      output: "a\nb",
      exitCode: 0,
      cancelled: false,
      truncated: false,
      timestamp: 3_000,
    },
  },
  {
    op: "customMessage",
    customType: "reminder",
    content: "remember the milk",
    display: true,
    details: undefined,
  },
  // Keeps everything from the first prompt: each odd value below stays in what the model reads.
  { op: "compaction", summary: "Listed the files.", keep: 1, tokensBefore: 1_234 },
  { op: "message", message: user("and now?", 4_000) },
  { op: "message", message: reply("now this") },
];

/** The session as pi wrote it, changed by `change`; read and exported as pi reads them (every leaf). */
function oddFile(change: (lines: FileLine[]) => void, program: SessionOp[] = SESSION) {
  const lines = writeWithPi(program);
  change(lines);
  const parsed = expectReadAsPi(lines, { changed: true, refusing: false });
  const leaf = projectSession(pathTo(parsed.entries, parsed.leafId));
  return { lines, parsed, leaf, modelView: convertToLlm(leaf.context) };
}

const entries = (lines: FileLine[]) => lines.slice(1) as Json[];
const messages = (lines: FileLine[], role: string) =>
  entries(lines).flatMap((entry) => {
    const message = entry.message as Json | undefined;
    return message?.role === role ? [message] : [];
  });
const mutation = (name: string) => {
  const found = MUTATIONS.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no mutation "${name}"`);
  return (lines: FileLine[]) => expect(found.apply(lines, 0)).toBe(true);
};

describe("odd values pi reads, read as pi reads them", () => {
  it("a tool call and its result with an empty id (an OpenAI-compatible server's): the call is answered", () => {
    const { modelView } = oddFile(mutation("a tool call and its result with an empty id"));
    const call = modelView.find(
      (message) => message.role === "assistant" && message.content[0]?.type === "toolCall",
    );
    expect(call?.content[0]).toMatchObject({ type: "toolCall", id: "" });
    expect(modelView[modelView.indexOf(call as never) + 1]).toMatchObject({
      role: "toolResult",
      toolCallId: "",
    });
  });

  it("a tool result with an empty tool name", () => {
    const { modelView } = oddFile(mutation("a tool result with an empty tool name"));
    expect(modelView.find((message) => message.role === "toolResult")).toMatchObject({ toolName: "" });
  });

  it("a bash execution with an empty command", () => {
    const { leaf } = oddFile(mutation("a bash execution with an empty command"));
    expect(leaf.context.find((message) => message.role === "bashExecution")).toMatchObject({ command: "" });
  });

  it("a custom message with an empty customType", () => {
    const { leaf } = oddFile(mutation("a custom message with an empty customType"));
    expect(leaf.context.find((message) => message.role === "custom")).toMatchObject({ customType: "" });
  });

  it("a message with a negative timestamp", () => {
    const { modelView } = oddFile((lines) => {
      const last = messages(lines, "user").at(-1) as Json;
      last.timestamp = -1_000;
    });
    expect(modelView.at(-2)).toMatchObject({ role: "user", timestamp: -1_000 });
  });

  it.each(["a message without content", "a message whose content is null"])(
    "%s: read as empty, and the file's model (named by the reply) is kept",
    (name) => {
      const { parsed, leaf } = oddFile((lines) => {
        const last = messages(lines, "assistant").at(-1) as Json;
        if (name.includes("null")) last.content = null;
        else delete last.content;
      });
      expect(leaf.context.at(-1)).toMatchObject({ role: "assistant", content: [] });
      expect(formatProblems(parsed.problems)).toMatch(/content is missing: read as empty, as pi reads it/);
      const plan = planImport(parsed, { hasModel: () => true, systemFact: () => createSystemFact() });
      expect(plan.init.settings?.model).toEqual({ provider: "local", id: "served-model" });
    },
  );

  it("an entry without a parentId: a root, as pi reads it, and kept by an export", () => {
    let orphan = "";
    const { parsed } = oddFile((lines) => {
      const entry = entries(lines).at(-1) as Json;
      orphan = entry.id as string;
      delete entry.parentId;
    });
    expect(parsed.entries.find((entry) => entry.id === orphan)?.parentId).toBeNull();
    expect(pathTo(parsed.entries, orphan).map((entry) => entry.id)).toEqual([orphan]);
    const exported = exportSession(
      { ...parsed, id: "s", createdAt: 0, calls: [], leafId: orphan },
      "pi",
    ).text;
    const pi = openWithPi(exported);
    expect(pi.getEntries().map((entry) => (entry as Json).id)).toContain(orphan);
    expect(pi.getLeafId()).toBe(orphan);
  });

  it("a context edit that leaves a compaction out: its recorded prompt and its summary go too", () => {
    const { lines, leaf } = oddFile(mutation("a context edit that leaves a compaction out"));
    const compaction = entries(lines).find((entry) => entry.type === "compaction");
    expect(compaction?.systemMessage).toMatchObject({ role: "system", content: "prompt" });
    expect(leaf.context.map((message) => message.role)).not.toContain("system");
    expect(leaf.context.map((message) => message.role)).not.toContain("compactionSummary");
    // The tail the compaction kept is still read.
    expect(leaf.context.length).toBeGreaterThan(0);
  });

  it("usage without cost or totalTokens: kept as it is, named in the notes", () => {
    const { parsed, modelView } = oddFile((lines) => {
      const usage = messages(lines, "assistant").at(-1)?.usage as Json;
      delete usage.cost;
      delete usage.totalTokens;
    });
    const last = modelView.at(-1);
    expect(last?.role === "assistant" && last.usage).toEqual({
      input: 0,
      output: 0,
      cacheRead: 0,
      cacheWrite: 0,
    });
    expect(parsed.notes.join("; ")).toMatch(/usage has no totalTokens and no cost: kept as it is/);
    expect(parsed.problems).toEqual([]);
  });

  it("a content block of an unknown type: kept, and sent as pi sends it", () => {
    const { modelView } = oddFile(mutation("a content block of an unknown type"));
    expect(JSON.stringify(modelView)).toContain('"type":"video"');
  });

  it("an unknown stop reason", () => {
    const { modelView } = oddFile(mutation("an unknown stop reason"));
    expect(JSON.stringify(modelView)).toContain('"stopReason":"refusal"');
  });

  it("a compaction without tokensBefore", () => {
    const { leaf } = oddFile(mutation("a compaction without tokensBefore"));
    const summary = leaf.context.find((message) => message.role === "compactionSummary");
    expect(summary).toHaveProperty("tokensBefore", undefined);
    expect(summary).toHaveProperty("summary", "Listed the files.");
  });

  it.each([
    ["a number", 1_767_225_600_000, "2026-01-01T00:00:00.000Z"],
    ["null", null, "1970-01-01T00:00:00.000Z"],
  ])("an entry timestamp that is %s: read as pi's new Date(...) reads it", (_name, value, iso) => {
    const { parsed, leaf } = oddFile((lines) => {
      const custom = entries(lines).find((entry) => entry.type === "custom_message") as Json;
      custom.timestamp = value;
    });
    expect(leaf.context.find((message) => message.role === "custom")?.timestamp).toBe(Date.parse(iso));
    expect(parsed.entries.find((entry) => entry.type === "custom_message")?.timestamp).toBe(iso);
  });

  it("the last entry without an id: given one, and the session continues there as pi's does", () => {
    const { parsed } = oddFile(mutation("the last entry without an id"));
    expect(parsed.leafId).toBe(parsed.entries.at(-1)?.id);
    expect(formatProblems(parsed.problems)).toMatch(/has no id; pi reaches it only as the file's last entry/);
  });
});
