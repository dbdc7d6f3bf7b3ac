import type { Message } from "@earendil-works/pi-ai";
import { describe, expect, it } from "vitest";
import type { CallRecord } from "../storage/records.ts";
import { syntheticSession, user } from "./anatomy.test-support.ts";
import type { KeptBody } from "./call-body.ts";
import { findCacheBreak } from "./cache-break.ts";
import type { Change } from "./call-changes.ts";
import { compose } from "./composition.ts";
import { EntryIndex } from "./entry-index.ts";

/** The synthetic session's calls and bodies, and the cache break of `body` after call `seq - 1`. */
function synthetic() {
  const session = syntheticSession();
  const index = new EntryIndex(session.entries);
  const call = (seq: number) => session.calls[seq] as CallRecord;
  const body = (seq: number) => session.bodies[seq] as KeptBody;
  const breakOf = (seq: number, sent: KeptBody, changes: Change[] = []) =>
    findCacheBreak(
      { call: call(seq - 1), body: body(seq - 1) },
      call(seq),
      sent,
      compose(sent.messages, index.sources(sent.sources)),
      changes,
      index,
    );
  return { session, body, breakOf };
}

describe("findCacheBreak", () => {
  it("finds none when the request starts with the whole previous one", () => {
    const { body, breakOf } = synthetic();
    expect(breakOf(1, body(1))).toBeUndefined();
  });

  it("breaks at the start on another model, whatever the messages", () => {
    const { body, breakOf } = synthetic();
    const model: Change = { kind: "model", text: "model changed from mirror/mirror to mirror/other" };
    const found = breakOf(1, body(1), [model]);
    expect(found).toMatchObject({
      position: 0,
      previousLength: 2,
      cause: "model changed from mirror/mirror to mirror/other: a prompt cache belongs to one model",
      entryId: null,
    });
    const tokens = compose(body(1).messages, []).messageTokens.reduce((sum, each) => sum + each, 0);
    expect(found?.tokensAfter).toBe(tokens);
  });

  it("blames a fact sent again with new content", () => {
    const { session, body, breakOf } = synthetic();
    const replaced: KeptBody = {
      ...body(1),
      messages: [body(1).messages[0], user("W".repeat(200)), ...body(1).messages.slice(2)] as Message[],
    };
    expect(breakOf(1, replaced)).toMatchObject({
      position: 1,
      cause: "this user was sent with new content (an approval decided, a fact replaced)",
      entryId: session.id(1),
    });
  });

  it("says a message of the previous request is no longer sent", () => {
    const { session, body, breakOf } = synthetic();
    const shorter: KeptBody = {
      kind: "kept",
      messages: body(2).messages.slice(0, 2),
      sources: body(2).sources.slice(0, 2),
    };
    expect(breakOf(2, shorter)).toMatchObject({
      position: 2,
      previousLength: 4,
      cause: "this assistant is no longer sent",
      entryId: session.id(2),
      tokensAfter: 0,
    });
  });
});
