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

describe("the mirror's simulated prompt cache", () => {
  const paced = models.getModel("mirror", "mirror");
  if (!paced) throw new Error("no mirror model");

  /** Two turns of one session, the first at `firstSpeed`, the second at `secondSpeed`; the second's usage. */
  async function secondTurnUsage(sessionId: string, firstSpeed: number, secondSpeed: number) {
    const ask = (messages: Message[], speed: number) =>
      models
        .streamSimple(paced!, normalizeContext({ messages }), {
          sessionId,
          metadata: { mirrorTokensPerSecond: speed },
        })
        .result();
    const first = await ask([user("hello")], firstSpeed);
    const second = await ask([user("hello"), first, user("and again")], secondSpeed);
    return { first: first.usage, second: second.usage };
  }

  it("does not begin anew when the speed changes: a session's cached tokens are those of an unchanged speed", async () => {
    const same = await secondTurnUsage("same-speed", 300, 300);
    const changed = await secondTurnUsage("speed-changed", 300, 75);
    expect(same.second.cacheRead).toBeGreaterThan(0);
    expect(changed.second).toEqual(same.second);
    expect(changed.first).toEqual(same.first);
  });

  it("is kept per session: another session's first turn reads nothing from it", async () => {
    const other = await secondTurnUsage("another-session", 75, 300);
    expect(other.first.cacheRead).toBe(0);
    expect(other.first.cacheWrite).toBeGreaterThan(0);
  });
});
