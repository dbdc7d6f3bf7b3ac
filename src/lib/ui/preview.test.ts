import { describe, expect, it } from "vitest";
import {
  createApprovalRequest,
  createBashExecution,
  createCustomMessage,
  createUserMessage,
} from "../messages/factories.ts";
import { preview, roleBadge } from "./preview.ts";

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
