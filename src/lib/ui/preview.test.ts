import { describe, expect, it } from "vitest";
import {
  createApprovalRequest,
  createBashExecution,
  createCustomMessage,
  createUserMessage,
} from "../messages/factories.ts";
import { factRowLabel, modelRowLabel, preview, roleBadge } from "./preview.ts";

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

  it("names custom messages by their type", () => {
    expect(roleBadge(createCustomMessage("reminder", "x", true))).toBe("custom:reminder");
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
