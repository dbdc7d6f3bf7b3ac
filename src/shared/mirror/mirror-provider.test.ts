import { createModels, normalizeContext, type Message } from "@earendil-works/pi-ai";
import { describe, expect, it } from "vitest";
import { zeroUsage } from "../usage.ts";
import { createMirrorProvider, type MirrorPayload } from "./mirror-provider.ts";

const models = createModels({ authContext: { env: async () => undefined, fileExists: async () => false } });
models.setProvider(createMirrorProvider());
const model = models.getModel("mirror", "mirror-instant");
if (!model) throw new Error("no mirror-instant model");

const user = (text: string): Message => ({ role: "user", content: [{ type: "text", text }], timestamp: 1 });
const failed: Message = {
  role: "assistant",
  content: [{ type: "text", text: "half a rep" }],
  api: "mirror",
  provider: "mirror",
  model: "mirror-instant",
  usage: zeroUsage(),
  stopReason: "error",
  errorMessage: "boom",
  timestamp: 2,
};
const textOf = (message: { content: { type: string; text?: string }[] }) =>
  message.content.map((block) => block.text ?? "").join("");

describe("the mirror provider's payload", () => {
  it("is handed to onPayload: the model, the messages after pi-ai's transform, the request's options", async () => {
    const handed: MirrorPayload[] = [];
    const reply = await models
      .streamSimple(model, normalizeContext({ messages: [user("first"), failed, user("again")] }), {
        temperature: 0.3,
        onPayload: (payload) => {
          handed.push(payload as MirrorPayload);
          return undefined;
        },
      })
      .result();
    expect(handed).toEqual([
      { model: "mirror-instant", messages: [user("first"), user("again")], options: { temperature: 0.3 } },
    ]);
    expect(textOf(reply)).toMatch(/^I received 2 messages: user, user\./);
  });

  it("stops before replying when the hook aborts the request (a preview), and the next request is answered", async () => {
    const controller = new AbortController();
    const previewed = await models
      .streamSimple(model, normalizeContext({ messages: [user("preview me")] }), {
        signal: controller.signal,
        onPayload: () => {
          controller.abort();
          return undefined;
        },
      })
      .result();
    expect(previewed.stopReason).toBe("aborted");
    expect(previewed.content).toEqual([]);
    const next = await models
      .streamSimple(model, normalizeContext({ messages: [user("now answer")] }), {})
      .result();
    expect(textOf(next)).toContain("> now answer");
  });

  it("answers a payload the hook hands back instead, as adapters send it", async () => {
    const reply = await models
      .streamSimple(model, normalizeContext({ messages: [user("original")] }), {
        onPayload: (payload) => ({ ...(payload as MirrorPayload), messages: [user("replaced")] }),
      })
      .result();
    expect(textOf(reply)).toContain("> replaced");
  });
});
