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
      command: "",
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
