import type { AssistantMessage } from "@earendil-works/pi-ai";
import { describe, expect, it } from "vitest";
import type { PayloadResponse } from "../../../shared/api-types.ts";
import { zeroUsage } from "../../../shared/usage.ts";
import { Notices } from "../../notices/notices.svelte.ts";
import { MemorySessionStore } from "../../storage/memory-store.ts";
import { StorageError } from "../../storage/session-store.ts";
import type { RecordedRequest } from "../stream-route.ts";
import { CallRecorder, type CallRecorderHost } from "./call-recorder.ts";
import { testSessionMeta } from "../../storage/session-meta.test-support.ts";

const request: RecordedRequest = {
  messages: [{ role: "user", content: "hi", timestamp: 1 }],
  provider: "local",
  modelId: "fixture-tools",
  api: "openai-completions",
  reasoning: undefined,
  options: {},
  proxyUrl: "http://127.0.0.1:4173",
  inPage: false,
  at: 0,
};
const reply: AssistantMessage = {
  role: "assistant",
  content: [{ type: "text", text: "hello" }],
  api: "openai-completions",
  provider: "local",
  model: "fixture-tools",
  usage: zeroUsage(),
  stopReason: "stop",
  timestamp: 1,
};

async function recordOne(fetchPayload: CallRecorderHost["fetchPayload"], { answered = true } = {}) {
  const store = new MemorySessionStore();
  await store.createSession(testSessionMeta("s", { title: "t", createdAt: 0, updatedAt: 0 }), []);
  const asked: string[] = [];
  const notices = new Notices();
  const recorder = new CallRecorder({
    store,
    sessionId: "s",
    keptBytes: () => 0,
    fetchPayload: fetchPayload && ((callId) => (asked.push(callId), fetchPayload(callId))),
    recorded: () => undefined,
    notices,
  });
  const callId = recorder.begin(request, [null], null);
  if (answered) recorder.answered(callId);
  recorder.end(reply, undefined, 10);
  await recorder.settled();
  expect(notices.find("calls:s")).toBeUndefined();
  return {
    body: await store.readCallBody("s", 0),
    summary: (await store.listCalls("s")).calls[0],
    callId,
    asked,
  };
}

describe("CallRecorder and the provider payload", () => {
  it("asks for the payload under the call's own id, and keeps it with the provider's endpoint", async () => {
    const reported: PayloadResponse = {
      payload: { kept: "all", value: { model: "fixture-tools", messages: [] }, bytes: 40 },
      endpoint: { url: "http://127.0.0.1:4318/v1/chat/completions", headers: {} },
    };
    const { body, summary, callId, asked } = await recordOne(async () => reported);
    expect(asked).toEqual([callId]);
    expect(summary).toMatchObject({ id: callId, capture: { payload: "all" } });
    // Kept again within this session's budget, its size counted as the page counts it.
    const value = { model: "fixture-tools", messages: [] };
    expect(body?.payload).toEqual({ kept: "all", value, bytes: JSON.stringify(value).length });
    expect(body?.endpoint).toEqual(reported.endpoint);
  });

  it("records why there is none: no proxy to ask, or the proxy's refusal", async () => {
    expect((await recordOne(undefined)).body?.payload).toEqual({
      kept: "none",
      bytes: 0,
      reason: "the proxy did not report it",
    });
    expect((await recordOne(() => undefined)).body?.payload).toMatchObject({
      reason: "the proxy did not report it",
    });
    const refused = await recordOne(async () => {
      throw new Error("No payload is kept for call x");
    });
    expect(refused.body?.payload).toEqual({
      kept: "none",
      bytes: 0,
      reason: "capturing it failed: No payload is kept for call x",
    });
    expect(refused.body).not.toHaveProperty("endpoint");
  });

  it("asks nobody for the payload of a call stopped before any proxy answered it", async () => {
    const { body, asked } = await recordOne(async () => ({ payload: { kept: "all", value: {}, bytes: 2 } }), {
      answered: false,
    });
    expect(asked).toEqual([]);
    expect(body?.payload).toEqual({
      kept: "none",
      bytes: 0,
      reason: "the call was stopped before any proxy answered its request",
    });
  });
});

describe("CallRecorder when storing fails", () => {
  async function failing(error: Error) {
    const store = new MemorySessionStore();
    store.appendCall = () => Promise.reject(error);
    const notices = new Notices();
    const recorder = new CallRecorder({
      store,
      sessionId: "s",
      keptBytes: () => 0,
      recorded: () => undefined,
      notices,
    });
    recorder.begin(request, [null], null);
    recorder.end(reply, undefined, 10);
    await recorder.settled();
    return notices.find("calls:s");
  }

  it("says only what a full disk stops, as the disk has its own notice", async () => {
    expect(await failing(new StorageError("quota", "full"))).toMatchObject({
      severity: "info",
      text: "Model calls are not recorded while the disk is full; the chat is not affected.",
    });
  });

  it("says why any other failure left a call unrecorded, and that the chat goes on", async () => {
    expect(await failing(new Error("the database went away"))).toMatchObject({
      severity: "warning",
      text: "A model call could not be recorded (the chat is not affected): the database went away",
    });
  });
});
