import type { AgentMessage } from "@earendil-works/pi-agent-core";
import type { AssistantMessage, Message } from "@earendil-works/pi-ai";
import { describe, expect, it } from "vitest";
import { zeroUsage } from "../../shared/usage.ts";
import { convertToLlm } from "./convert.ts";
import { bashExecutionToText } from "./kinds/bash-execution.ts";
import { BRANCH_SUMMARY_PREFIX, BRANCH_SUMMARY_SUFFIX } from "./kinds/branch-summary.ts";
import { COMPACTION_SUMMARY_PREFIX, COMPACTION_SUMMARY_SUFFIX } from "./kinds/compaction-summary.ts";
import {
  createApprovalRequest,
  createBashExecution,
  createBranchSummary,
  createCompactionSummary,
  createCustomMessage,
  createNotification,
  createProgress,
  createUserMessage,
} from "./factories.ts";
import { DEFAULT_POLICIES, type VisibilityPolicies } from "./policies.ts";
import type { BashExecutionMessage } from "./types.ts";

/** pi's coding agent 1.6.0, loaded from its published files (its package exports only the CLI entry). */
type PiConvert = (messages: unknown[]) => Message[];
const pi = (await import(
  new URL("../../../node_modules/@earendil-works/pi-coding-agent/dist/core/messages.js", import.meta.url).href
)) as { convertToLlm: PiConvert; bashExecutionToText: (message: unknown) => string };

const ALL_TEXT: VisibilityPolicies = {
  notification: "userText",
  approval_request: "userText",
  progress: "userText",
};
const usage = zeroUsage();

function assistant(
  content: AssistantMessage["content"],
  stopReason: AssistantMessage["stopReason"] = "stop",
): AssistantMessage {
  return { role: "assistant", content, api: "a", provider: "p", model: "m", usage, stopReason, timestamp: 5 };
}

function bash(fields: Partial<BashExecutionMessage>): BashExecutionMessage {
  return {
    ...createBashExecution(
      { command: "npm test", output: "ok", exitCode: 0, cancelled: false, truncated: false },
      10,
    ),
    ...fields,
  };
}

const bashCases: [string, BashExecutionMessage][] = [
  ["exit code 0", bash({ exitCode: 0 })],
  ["exit code undefined", bash({ exitCode: undefined })],
  ["exit code null (older sessions)", bash({ exitCode: null as unknown as undefined })],
  ["exit code 2", bash({ exitCode: 2 })],
  ["cancelled, with a code", bash({ cancelled: true, exitCode: 130 })],
  ["truncated with a full-output path", bash({ truncated: true, fullOutputPath: "/tmp/out.log" })],
  ["truncated without a path", bash({ truncated: true })],
  ["empty output", bash({ output: "" })],
  ["multi-line output", bash({ output: "line 1\nline 2" })],
  ["excluded from context (!!)", bash({ excludeFromContext: true })],
];

const image = { type: "image" as const, data: "iVBORw0KGgo=", mimeType: "image/png" };

describe("conformance with pi's coding agent 1.6.0", () => {
  it.each(bashCases)("bashExecutionToText: %s", (_name, message) => {
    expect(bashExecutionToText(message)).toBe(pi.bashExecutionToText(message));
  });

  it("uses the same summary texts", async () => {
    const module = (await import(
      new URL("../../../node_modules/@earendil-works/pi-coding-agent/dist/core/messages.js", import.meta.url)
        .href
    )) as Record<string, string>;
    expect([
      COMPACTION_SUMMARY_PREFIX,
      COMPACTION_SUMMARY_SUFFIX,
      BRANCH_SUMMARY_PREFIX,
      BRANCH_SUMMARY_SUFFIX,
    ]).toEqual([
      module.COMPACTION_SUMMARY_PREFIX,
      module.COMPACTION_SUMMARY_SUFFIX,
      module.BRANCH_SUMMARY_PREFIX,
      module.BRANCH_SUMMARY_SUFFIX,
    ]);
  });

  it("converts a history of every coding-agent type exactly as pi does", () => {
    const history: AgentMessage[] = [
      { role: "system", content: "Be brief.", timestamp: 0 },
      createUserMessage("hi", 1),
      assistant([{ type: "text", text: "hello" }]),
      ...bashCases.map(([, message]) => message),
      createCustomMessage("reminder", "remember the milk", true, { source: "test" }, 20),
      createCustomMessage("screenshot", [{ type: "text", text: "see:" }, image], false, undefined, 21),
      createBranchSummary("We tried X; it failed.", "entry-42", 22),
      createCompactionSummary("Earlier: set up the repo.", 12_345, 23),
      {
        role: "toolResult",
        toolCallId: "t1",
        toolName: "calculate",
        content: [{ type: "text", text: "4" }],
        isError: false,
        timestamp: 24,
      },
    ];
    expect(convertToLlm(history, DEFAULT_POLICIES)).toEqual(pi.convertToLlm(history));
  });

  it("passes system, user, assistant and toolResult through as the very same objects", () => {
    const history: AgentMessage[] = [
      { role: "system", content: "p", timestamp: 0 },
      createUserMessage("u", 1),
      assistant([]),
    ];
    const out = convertToLlm(history, DEFAULT_POLICIES);
    out.forEach((message, index) => expect(message).toBe(history[index]));
  });

  it("hides the tutorial types by default, as pi drops roles it does not know", () => {
    const history: AgentMessage[] = [
      createNotification("n", "info", 1),
      createApprovalRequest({ action: "a" }, 2),
      createProgress("p", 0.5, 3),
    ];
    expect(convertToLlm(history, DEFAULT_POLICIES)).toEqual(pi.convertToLlm(history));
    expect(convertToLlm(history, DEFAULT_POLICIES)).toEqual([]);
  });

  it("leaves a missing timestamp missing, as pi does (bash executions, branch and compaction summaries)", () => {
    const history = [
      { ...bash({}), timestamp: undefined },
      { role: "branchSummary", summary: "s", fromId: null },
      { role: "compactionSummary", summary: "s", tokensBefore: 1 },
    ] as unknown as AgentMessage[];
    const out = convertToLlm(history);
    expect(out).toStrictEqual(pi.convertToLlm(history));
    expect(out.map((message) => message.timestamp)).toEqual([undefined, undefined, undefined]);
  });

  it("passes assistant content that is not a list, or holds null or holes, through as pi does", () => {
    const odd = [
      { ...assistant([]), content: "plain text" },
      { ...assistant([]), content: null },
      // eslint-disable-next-line no-sparse-arrays
      { ...assistant([]), content: [null, , { type: "text", text: "after a hole" }] },
    ] as unknown as AgentMessage[];
    expect(convertToLlm(odd)).toStrictEqual(pi.convertToLlm(odd));
    expect(convertToLlm(odd)).toHaveLength(3);
  });

  it("skips the holes of a sparse list, as pi's map and filter do", () => {
    // eslint-disable-next-line no-sparse-arrays
    const sparse = [createUserMessage("a", 1), , createUserMessage("b", 2)] as AgentMessage[];
    expect(convertToLlm(sparse)).toStrictEqual(pi.convertToLlm(sparse));
    expect(convertToLlm(sparse)).toHaveLength(2);
  });

  it("converts a custom message changed in place to its new text", () => {
    const message = createCustomMessage("reminder", "old text", true, undefined, 1);
    expect(convertToLlm([message])[0]).toMatchObject({ content: [{ type: "text", text: "old text" }] });
    message.content = "new text";
    expect(convertToLlm([message])).toStrictEqual(pi.convertToLlm([message]));
    expect(convertToLlm([message])[0]).toMatchObject({ content: [{ type: "text", text: "new text" }] });
  });

  it("can be called as pi calls it, with the facts alone (default policies)", () => {
    const history: AgentMessage[] = [createUserMessage("u", 1), createNotification("n", "info", 2)];
    expect(convertToLlm(history)).toEqual(pi.convertToLlm(history));
  });
});

describe("convertToLlm", () => {
  it("tutorial exercise: a history mixing the custom types yields only standard roles, in order", () => {
    const history: AgentMessage[] = [
      { role: "system", content: "p", timestamp: 0 },
      createUserMessage("first", 1),
      createNotification("upload finished: report.pdf", "info", 2),
      createProgress("indexing", 0.4, 3),
      assistant([{ type: "text", text: "ok" }]),
      createApprovalRequest({ action: "deploy" }, 4),
      createUserMessage("second", 5),
    ];
    for (const policies of [DEFAULT_POLICIES, ALL_TEXT]) {
      const out = convertToLlm(history, policies);
      expect(
        out.every((message) => ["system", "user", "assistant", "toolResult"].includes(message.role)),
      ).toBe(true);
    }
    expect(convertToLlm(history, DEFAULT_POLICIES).map((message) => message.role)).toEqual([
      "system",
      "user",
      "assistant",
      "user",
    ]);
    expect(convertToLlm(history, ALL_TEXT).map((message) => message.role)).toEqual([
      "system",
      "user",
      "user",
      "user",
      "assistant",
      "user",
      "user",
    ]);
  });

  it("turns each tutorial type into user text under the as-user-text policy", () => {
    const out = convertToLlm(
      [
        createNotification("disk almost full", "warning", 1),
        createNotification("upload done", "info", 2),
        createApprovalRequest(
          { action: "Deploy", subject: "v1.2", status: "rejected", reason: "not on Friday" },
          3,
        ),
        createProgress("indexing", 0.42, 4),
        createProgress("waiting", undefined, 5),
      ],
      ALL_TEXT,
    );
    expect(
      out.map((message) =>
        message.role === "user" && Array.isArray(message.content) ? message.content[0] : undefined,
      ),
    ).toEqual([
      { type: "text", text: "[Notification: warning] disk almost full" },
      { type: "text", text: "[Notification] upload done" },
      { type: "text", text: "[Approval request] Deploy (v1.2): rejected: not on Friday" },
      { type: "text", text: "[Progress 42%] indexing" },
      { type: "text", text: "[Progress] waiting" },
    ]);
    expect(out.map((message) => message.timestamp)).toEqual([1, 2, 3, 4, 5]);
  });

  it("converts custom string content to one text part and keeps image parts", () => {
    const [fromString, fromParts] = convertToLlm(
      [
        createCustomMessage("a", "plain", true, undefined, 1),
        createCustomMessage("b", [{ type: "text", text: "x" }, image], false, undefined, 2),
      ],
      DEFAULT_POLICIES,
    );
    expect(fromString).toEqual({ role: "user", content: [{ type: "text", text: "plain" }], timestamp: 1 });
    expect(fromParts).toEqual({ role: "user", content: [{ type: "text", text: "x" }, image], timestamp: 2 });
  });

  it("keeps a policy-converted fact recorded between a tool call and its result after the result", () => {
    const call = assistant(
      [{ type: "toolCall", id: "c1", name: "save_note", arguments: { text: "x" } }],
      "toolUse",
    );
    const approval = createApprovalRequest(
      { action: "Run save_note", toolCallId: "c1", toolName: "save_note", status: "approved" },
      6,
    );
    const result: Message = {
      role: "toolResult",
      toolCallId: "c1",
      toolName: "save_note",
      content: [{ type: "text", text: "saved" }],
      isError: false,
      timestamp: 7,
    };
    const out = convertToLlm([createUserMessage("save", 1), call, approval, result], ALL_TEXT);
    expect(out.map((message) => message.role)).toEqual(["user", "assistant", "toolResult", "user"]);
  });

  it("does not hold anything back after an aborted tool call, which will never get a result", () => {
    const aborted = assistant([{ type: "toolCall", id: "c9", name: "save_note", arguments: {} }], "aborted");
    const out = convertToLlm(
      [aborted, createNotification("stopped", "info", 2), createUserMessage("again", 3)],
      ALL_TEXT,
    );
    expect(out.map((message) => message.role)).toEqual(["assistant", "user", "user"]);
  });

  it("returns the same converted object for an unchanged fact, and a new one when the policy changes", () => {
    const note = createNotification("n", "info", 1);
    const first = convertToLlm([note], ALL_TEXT)[0];
    expect(convertToLlm([note], ALL_TEXT)[0]).toBe(first);
    expect(convertToLlm([note], DEFAULT_POLICIES)).toEqual([]);
  });
});
