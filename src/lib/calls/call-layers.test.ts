import type { Message } from "@earendil-works/pi-ai";
import { describe, expect, it } from "vitest";
import type { ProviderView } from "../model-view/provider-changes.ts";
import type { CallBodyRecord } from "../storage/records.ts";
import { cacheStopNote, keptMessages, notSentSummary, shownChanges } from "./call-layers.ts";

const question: Message = { role: "user", content: "Time?", timestamp: 1 };

const body = (messages: CallBodyRecord["messages"]): CallBodyRecord => ({
  schema: 2,
  sessionId: "s",
  seq: 0,
  messages,
  sources: [],
  payload: { kept: "none", bytes: 0, reason: "x" },
});

/** A provider view of three model-view messages, the second and third left out. */
const view = (): ProviderView => ({
  messages: [question],
  sourceOf: Int32Array.from([0]),
  targetOf: Int32Array.from([0, -1, -1]),
  providerChanges: [[{ kind: "unchanged" }]],
  modelChanges: [
    [{ kind: "unchanged" }],
    [{ kind: "dropped", reason: "aborted" }],
    [{ kind: "dropped", reason: "error" }],
  ],
});

describe("keptMessages", () => {
  it("gives the messages of a body kept whole, and nothing of one cut, not kept or not read", () => {
    expect(keptMessages(body({ kept: "all", value: [question], bytes: 40 }))).toEqual([question]);
    expect(keptMessages(body({ kept: "truncated", text: "[", bytes: 40 }))).toBeUndefined();
    expect(keptMessages(body({ kept: "none", bytes: 40, reason: "off" }))).toBeUndefined();
    expect(keptMessages(undefined)).toBeUndefined();
  });
});

describe("shownChanges", () => {
  it("badges what the transform did, never that it did nothing", () => {
    expect(shownChanges([{ kind: "unchanged" }])).toEqual([]);
    expect(shownChanges(undefined)).toEqual([]);
    expect(shownChanges([{ kind: "images-downgraded", images: 1 }])).toEqual([
      { kind: "images-downgraded", images: 1 },
    ]);
  });
});

describe("notSentSummary", () => {
  it("names each message left out, counting from 1, with why", () => {
    expect(notSentSummary(view())).toBe(
      "message 2 (dropped: aborted), message 3 (dropped: reply ended in error)",
    );
  });

  it("is undefined when every message is sent", () => {
    expect(notSentSummary({ ...view(), modelChanges: [[{ kind: "unchanged" }]] })).toBeUndefined();
  });
});

describe("cacheStopNote", () => {
  it("says where the prompt cache stops when the requests part before the previous one ends", () => {
    expect(cacheStopNote(2, 4)).toBe(
      "; from message 3 on they differ, so a provider's prompt cache stops matching there",
    );
    expect(cacheStopNote(4, 4)).toBe("");
  });
});
