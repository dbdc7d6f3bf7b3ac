import type { AgentMessage } from "@earendil-works/pi-agent-core";
import { describe, expect, it } from "vitest";
import { createBashExecution, createNotification, createUserMessage } from "../messages/factories.ts";
import { zeroUsage } from "../../shared/usage.ts";
import { copyText } from "./copy-text.ts";

describe("copied text of a chat message", () => {
  it("is what the message says: text, calls by name, commands with their output", () => {
    expect(copyText(createUserMessage("What is 2 + 2?", 1))).toBe("What is 2 + 2?");
    expect(
      copyText({
        role: "assistant",
        content: [
          { type: "thinking", thinking: "private" },
          { type: "text", text: "Calling `calculate`." },
          { type: "toolCall", id: "c1", name: "calculate", arguments: { expression: "2 + 2" } },
        ],
        api: "mirror",
        provider: "mirror",
        model: "mirror",
        usage: zeroUsage(),
        stopReason: "toolUse",
        timestamp: 2,
      }),
    ).toBe('Calling `calculate`.\n\ncalculate({"expression":"2 + 2"})');
    expect(
      copyText(
        createBashExecution(
          { command: "ls", output: "a\nb", exitCode: 0, cancelled: false, truncated: false },
          3,
        ),
      ),
    ).toBe("$ ls\na\nb");
    expect(copyText(createNotification("Deployed", "info", 4))).toBe("Deployed");
  });

  it("names a block of a type pi's types do not have (read from a file) by its type", () => {
    const video = { type: "video", url: "v.mp4" } as unknown as { type: "text"; text: string };
    expect(copyText({ role: "user", content: [{ type: "text", text: "see" }, video], timestamp: 1 })).toBe(
      "see\n[video block]",
    );
    expect(
      copyText({
        role: "assistant",
        content: [{ type: "text", text: "here" }, video],
        api: "a",
        provider: "p",
        model: "m",
        usage: zeroUsage(),
        stopReason: "stop",
        timestamp: 2,
      }),
    ).toBe("here\n\n[video block]");
  });

  it("is a fact of a role nobody defined as its JSON, all of it", () => {
    const artifact = { role: "artifact", customType: "plan", steps: ["a", "b"], timestamp: 5 };
    expect(JSON.parse(copyText(artifact as unknown as AgentMessage))).toEqual(artifact);
  });
});
