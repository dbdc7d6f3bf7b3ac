import { describe, expect, it } from "vitest";
import { createInjectedAssistantMessage } from "./factories.ts";
import { replySource } from "./reply-source.ts";

describe("reply source", () => {
  it("names the model for model replies and says when no model wrote one", () => {
    const injected = createInjectedAssistantMessage("hand-made", 1);
    expect(replySource(injected)).toEqual({ label: "Written by hand (injected)", prepared: true });
    expect(
      replySource({ ...injected, api: "openai-completions", provider: "mirror", model: "mirror" }),
    ).toEqual({ label: "mirror/mirror", prepared: false });
  });
});
