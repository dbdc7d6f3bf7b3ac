import type { AgentMessage } from "@earendil-works/pi-agent-core";
import type { JsonObject } from "@earendil-works/pi-ai";
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { zeroUsage } from "../../shared/usage.ts";
import {
  createApprovalRequest,
  createBashExecution,
  createCustomMessage,
  createUserMessage,
} from "./factories.ts";
import { PREVIEW_LENGTH } from "./kinds/text.ts";
import { factRowLabel, modelRowLabel, preview, previewLine, roleBadge } from "./preview.ts";

describe("preview", () => {
  it("fits any fact on one line", () => {
    expect(preview(createUserMessage("two\nlines"))).toBe("two lines");
    expect(preview(createUserMessage("x".repeat(500)))).toHaveLength(140);
    expect(
      preview(
        createBashExecution({
          command: "npm test",
          output: "",
          exitCode: 1,
          cancelled: false,
          truncated: false,
          excludeFromContext: true,
        }),
      ),
    ).toBe("!!npm test → exit 1");
    expect(preview(createApprovalRequest({ action: "Run save_note", subject: '{"text":"x"}' }))).toBe(
      'Run save_note — pending ({"text":"x"})',
    );
  });

  it("shows a tool call whose arguments nest 10,000 levels deep, cut to one line", () => {
    let args: JsonObject = {};
    for (let level = 0; level < 10_000; level++) args = { a: args };
    const reply: AgentMessage = {
      role: "assistant",
      content: [{ type: "toolCall", id: "c1", name: "save_note", arguments: args }],
      api: "mirror",
      provider: "mirror",
      model: "mirror",
      usage: zeroUsage(),
      stopReason: "toolUse",
      timestamp: 1,
    };
    expect(preview(reply)).toMatch(/^→ save_note\(\{"a":\{"a":.*…$/);
    expect(preview(reply)).toHaveLength(140);
  });

  it("names custom messages by their type", () => {
    expect(roleBadge(createCustomMessage("reminder", "x", true))).toBe("custom:reminder");
  });

  it("shows a fact of a role nobody defined as its JSON, named by its role and custom type", () => {
    // As a live pi's extension may bring it: a role of its own, and a custom type.
    const artifact = {
      role: "artifact",
      customType: "plan",
      title: "Refactor\nplan",
      timestamp: 5,
    } as unknown as AgentMessage;
    expect(roleBadge(artifact)).toBe("artifact:plan");
    expect(preview(artifact)).toBe(
      '{"role":"artifact","customType":"plan","title":"Refactor\\nplan","timestamp":5}',
    );
    const bare = { role: "artifact", timestamp: 5 } as unknown as AgentMessage;
    expect(roleBadge(bare)).toBe("artifact");
  });
});

describe("row names", () => {
  it("hold the visible text, with the row's number first and the preview last", () => {
    expect(factRowLabel(2, "notification", "hidden by policy", "info: Upload finished")).toBe(
      "Fact 3: notification, hidden by policy. info: Upload finished",
    );
    expect(modelRowLabel(0, "user", 2, "hello")).toBe("Model message 1: user, from fact 2. hello");
  });
});

describe("a text's preview line", () => {
  /** The line as the whole text gives it: whitespace runs one space, trimmed, cut with "…". */
  const wholeLine = (text: string): string => {
    const line = text.replace(/\s+/g, " ").trim();
    return line.length > PREVIEW_LENGTH ? `${line.slice(0, PREVIEW_LENGTH - 1)}…` : line;
  };

  it("is the line the whole text makes, whatever its whitespace", () => {
    const piece = fc.oneof(
      fc.constantFrom(" ", "\n", "\t", "  \n ", "\u00a0", "\u2028"),
      fc.string({ maxLength: 30 }),
      fc.constantFrom("x".repeat(139), " ".repeat(600), "word ".repeat(200)),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 80 }), (pieces) => {
        const text = pieces.join("");
        expect(previewLine(text)).toBe(wholeLine(text));
      }),
      { numRuns: 2_000 },
    );
  });

  it("reads the start of a long text, not all of it", () => {
    const text = "lorem ipsum ".repeat(100_000);
    const expected = wholeLine(text);
    const replace = vi.spyOn(String.prototype, "replace");
    try {
      expect(previewLine(text)).toBe(expected);
      const read = replace.mock.contexts.map((context) => String(context).length);
      expect(Math.max(...read)).toBeLessThanOrEqual(PREVIEW_LENGTH * 4);
    } finally {
      replace.mockRestore();
    }
  });
});
