import { describe, expect, it } from "vitest";
import { createInjectedAssistantMessage, createUserMessage } from "../messages/factories.ts";
import { branchSummaryDraft } from "./fork.ts";

describe("branchSummaryDraft", () => {
  it("lists what was asked after the fork point", () => {
    const facts = [
      createUserMessage("before"),
      createUserMessage("try a regex"),
      createInjectedAssistantMessage("ok"),
      createUserMessage("  and   then?"),
    ];
    expect(branchSummaryDraft(facts, 0)).toBe("On the branch we asked: “try a regex”; “and then?”.");
    expect(branchSummaryDraft(facts, 3)).toBe("On the branch: nothing was tried.");
  });
});
