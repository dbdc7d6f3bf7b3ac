import { describe, expect, it } from "vitest";
import { FORMS, INJECT_KINDS } from "./forms.ts";

describe("injection forms", () => {
  it("cover every custom type and plain user and assistant messages", () => {
    expect(INJECT_KINDS).toEqual([
      "notification",
      "approval_request",
      "progress",
      "bashExecution",
      "custom",
      "branchSummary",
      "compactionSummary",
      "user",
      "assistant",
    ]);
    expect(FORMS.bashExecution.map((field) => field.name)).toEqual([
      "command",
      "output",
      "exitCode",
      "cancelled",
      "truncated",
      "fullOutputPath",
      "excludeFromContext",
    ]);
  });
});
