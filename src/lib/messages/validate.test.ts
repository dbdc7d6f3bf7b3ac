import { describe, expect, it } from "vitest";
import {
  createApprovalRequest,
  createBashExecution,
  createBranchSummary,
  createCompactionSummary,
  createCustomMessage,
  createInjectedAssistantMessage,
  createNotification,
  createProgress,
  createUserMessage,
} from "./factories.ts";
import { validateMessage } from "./validate.ts";

function errorsOf(value: unknown) {
  const result = validateMessage(value);
  return result.ok ? [] : result.errors;
}

describe("validateMessage", () => {
  it("accepts every factory's output", () => {
    const messages = [
      createUserMessage("hi"),
      createInjectedAssistantMessage("hello"),
      createBashExecution({
        command: "ls",
        output: "",
        exitCode: undefined,
        cancelled: false,
        truncated: false,
      }),
      createCustomMessage("kind", [{ type: "text", text: "x" }], false, { any: ["json"] }),
      createBranchSummary("s", null),
      createCompactionSummary("s", 100),
      createNotification("n", "warning"),
      createApprovalRequest({ action: "deploy", subject: "v1" }),
      createProgress("p", 0.5),
      { role: "system", content: "prompt", toolsAdded: [], timestamp: 0 },
      {
        role: "toolResult",
        toolCallId: "c",
        toolName: "t",
        content: [{ type: "text", text: "r" }],
        isError: false,
        timestamp: 1,
      },
    ];
    for (const message of messages) expect(errorsOf(message), JSON.stringify(message)).toEqual([]);
  });

  it("names an unknown role", () => {
    expect(errorsOf({ role: "bash", timestamp: 1 })).toEqual([
      { field: "role", message: expect.stringMatching(/^Unknown role "bash"; expected one of system, user/) },
    ]);
  });

  it("puts each problem next to its field", () => {
    const errors = errorsOf({
      role: "bashExecution",
      command: 5,
      output: 3,
      exitCode: "abc",
      cancelled: false,
      truncated: "no",
      timestamp: 1,
    });
    expect(errors.map((error) => error.field)).toEqual(["command", "output", "exitCode", "truncated"]);
    expect(errors.find((error) => error.field === "exitCode")?.message).toBe(
      "exitCode must be a number or left empty.",
    );
  });

  it("rejects a fractional exit code, a fraction outside 0..1 and a bad level", () => {
    expect(
      errorsOf({
        ...createBashExecution({ command: "x", output: "", exitCode: 0, cancelled: false, truncated: false }),
        exitCode: 1.5,
      })[0]?.message,
    ).toBe("exitCode must be a whole number.");
    expect(errorsOf({ ...createProgress("p"), fraction: 2 })[0]?.message).toBe("fraction must be at most 1.");
    expect(errorsOf({ ...createNotification("n"), level: "loud" })[0]?.message).toBe(
      "level must be one of info, warning, error.",
    );
  });

  it("checks content parts, including images and tool calls", () => {
    expect(errorsOf({ role: "user", content: [{ type: "image", data: 1 }], timestamp: 1 })[0]?.field).toBe(
      "content[0]",
    );
    expect(
      errorsOf({
        ...createInjectedAssistantMessage("x"),
        content: [{ type: "toolCall", id: "1", name: "n", arguments: "{}" }],
      })[0]?.field,
    ).toBe("content[0]");
  });

  it("accepts the tutorial's notification without a level", () => {
    expect(errorsOf({ role: "notification", text: "Upload finished", timestamp: 1 })).toEqual([]);
    expect(errorsOf({ role: "notification", text: "x", level: 3, timestamp: 1 })[0]?.field).toBe("level");
  });

  it("requires a numeric timestamp and an object", () => {
    expect(errorsOf({ ...createUserMessage("x"), timestamp: "2024-01-01" })[0]?.field).toBe("timestamp");
    expect(errorsOf("hello")[0]?.message).toBe("A message must be a JSON object.");
    expect(errorsOf(null)[0]?.message).toBe("A message must be a JSON object.");
  });
});

describe("validateMessage as pi reads it (files and storage)", () => {
  const read = (value: unknown) => validateMessage(value, { asPiReads: true });
  const reply = (fields: Record<string, unknown>) => ({
    ...createInjectedAssistantMessage("x", 1),
    ...fields,
  });

  it("accepts empty strings and times before 1970, which pi's types allow, even from people", () => {
    const result = {
      role: "toolResult",
      toolCallId: "",
      toolName: "",
      content: [],
      isError: false,
      timestamp: -5,
    };
    expect(errorsOf(result)).toEqual([]);
    expect(errorsOf({ ...createCustomMessage("", "x", true), timestamp: -1 })).toEqual([]);
  });

  it("reads a message of the model's roles without content as empty, as pi does, and says so", () => {
    const withoutContent = read({ role: "user", timestamp: 1 });
    expect(withoutContent).toEqual({
      ok: true,
      message: { role: "user", content: [], timestamp: 1 },
      readAs: [],
      repaired: { field: "content", message: "content is missing: read as empty, as pi reads it" },
    });
    expect(read({ role: "system", content: null, timestamp: 1 })).toMatchObject({
      ok: true,
      message: { role: "system", content: "" },
    });
    // People are still told.
    expect(errorsOf({ role: "user", timestamp: 1 })[0]?.field).toBe("content");
  });

  it("keeps values pi reads though its types do not allow them, one note per field", () => {
    const value = reply({
      stopReason: "refusal",
      usage: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 },
      content: [
        { type: "text", text: "a" },
        { type: "video", url: "v" },
      ],
    });
    const result = read(value);
    expect(result.ok && result.message).toBe(value);
    expect(result.ok && result.readAs?.map((note) => note.message)).toEqual([
      'content[1] is a block of type "video", which pi\'s types do not have here: kept, and sent as pi sends it',
      'stopReason "refusal" is not one pi knows: kept as it is',
      "usage has no totalTokens and no cost: kept as it is (counted as 0 here)",
    ]);
    expect(errorsOf(value).map((error) => error.field)).toEqual([
      "content[1]",
      "stopReason",
      "usage.totalTokens",
    ]);
  });

  it("still refuses values of another kind than pi's types name, which the page could not show", () => {
    expect(read({ role: "user", content: 42, timestamp: 1 }).ok).toBe(false);
    expect(read(reply({ content: "plain text" })).ok).toBe(false);
    expect(read(reply({ content: [null] })).ok).toBe(false);
    expect(read(reply({ content: [{ type: "text", text: 5 }] })).ok).toBe(false);
  });
});
