import { describe, expect, it } from "vitest";
import { createBashExecution, createNotification, createUserMessage } from "../messages/factories.ts";
import { DEFAULT_CONTEXT_SETTINGS } from "../messages/policies.ts";
import { projectFacts } from "../model-view/project.ts";
import { chatFateMark } from "./fate-mark.ts";

describe("chat fate marks", () => {
  it("mark exactly the facts the model does not receive as shown, from the model view's fates", () => {
    const facts = [
      createUserMessage("hello", 1),
      createNotification("deployed", "info", 2),
      createBashExecution({ command: "ls", output: "a", exitCode: 0, cancelled: false, truncated: false }, 3),
      createBashExecution(
        {
          command: "cat .env",
          output: "secret",
          exitCode: 0,
          cancelled: false,
          truncated: false,
          excludeFromContext: true,
        },
        4,
      ),
    ];
    const marks = projectFacts(facts, DEFAULT_CONTEXT_SETTINGS).fates.map((fate) => chatFateMark(fate)?.text);
    expect(marks).toEqual([
      undefined,
      "hidden from the model",
      "sent as user text",
      "hidden from the model (!!)",
    ]);

    const asUserText = projectFacts(facts, {
      ...DEFAULT_CONTEXT_SETTINGS,
      policies: { ...DEFAULT_CONTEXT_SETTINGS.policies, notification: "userText" },
    });
    expect(chatFateMark(asUserText.fates[1])?.text).toBe("sent as user text");
  });

  it("say when compaction dropped a fact", () => {
    expect(chatFateMark("compacted")).toMatchObject({ text: "dropped by compaction", tone: "hidden" });
  });
});
