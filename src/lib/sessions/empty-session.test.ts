import { describe, expect, it } from "vitest";
import { defaultSettings } from "../agent/session-settings.ts";
import { SCHEMA_VERSION, type SessionMeta } from "../storage/records.ts";
import { createUserMessage } from "../messages/factories.ts";
import { isEmptySession, messageCountLabel, reusableSession } from "./empty-session.ts";

function meta(id: string, patch: Partial<SessionMeta> = {}): SessionMeta {
  return {
    schema: SCHEMA_VERSION,
    id,
    title: "New session",
    titleIsCustom: false,
    createdAt: 1,
    updatedAt: 1,
    messageCount: 1,
    nextSeq: 1,
    revision: 1,
    leafId: "root",
    settings: defaultSettings(),
    ...patch,
  };
}

describe("empty sessions", () => {
  it("are labelled by the messages the chat shows, without the system prompt", () => {
    expect(messageCountLabel(1)).toBe("No messages yet");
    expect(messageCountLabel(2)).toBe("1 message");
    expect(messageCountLabel(3)).toBe("2 messages");
  });

  it("are only the untouched ones: no message, no custom title, not a fork, nothing held", () => {
    expect(isEmptySession({ meta: meta("a"), factCount: 1 })).toBe(true);
    expect(isEmptySession({ meta: meta("a"), factCount: 2 })).toBe(false);
    expect(isEmptySession({ meta: meta("a", { titleIsCustom: true }), factCount: 1 })).toBe(false);
    expect(
      isEmptySession({
        meta: meta("a", { forkedFrom: { sessionId: "b", title: "B", factIndex: 0 } }),
        factCount: 1,
      }),
    ).toBe(false);
    const held = { ...defaultSettings(), nextTurn: [createUserMessage("later", 1)] };
    expect(isEmptySession({ meta: meta("a", { settings: held }), factCount: 1 })).toBe(false);
  });

  it("are reused by New session: the open one first, else one from the list, else none", () => {
    const used = meta("used", { messageCount: 3 });
    const empty = meta("empty");
    expect(reusableSession([used, empty], { meta: empty, factCount: 1 })).toBe("empty");
    expect(reusableSession([used, empty], { meta: used, factCount: 3 })).toBe("empty");
    expect(reusableSession([used], { meta: used, factCount: 3 })).toBeUndefined();
    // The open session's live facts count, not its stored count, which may lag behind.
    expect(reusableSession([empty], { meta: empty, factCount: 2 })).toBeUndefined();
  });
});
