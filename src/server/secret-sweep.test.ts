import { describe, expect, it } from "vitest";
import { zeroUsage } from "../shared/usage.ts";
import { API_ROUTES, type ApiRouteName, payloadPath } from "../shared/api-routes.ts";
import { type RawRequest, type Reply, sendRequest } from "./api-handler.test-support.ts";
import { auth, body, hello, LOCAL_KEY, usePayloadLoopback } from "./payload-capture.test-support.ts";

/**
 * The secret sweep: every kind of answer the proxy gives (its session and models, a stream, a kept payload,
 * a preview, and the errors of each) is brought to carry the configured key wherever an upstream or the
 * conversation can put it, and none of them holds it, in its body or its headers. What the page holds, and
 * so every export it writes, comes from these answers: a key none of them carries cannot be exported.
 */

const loopback = usePayloadLoopback();

/** The echo of the key an upstream sent back, as a conversation then carries it onward. */
const echoedKey = `You sent: Authorization: Bearer ${LOCAL_KEY}`;

/** The conversation of a later turn: the key in a message's text and as the name of a tool argument. */
const carryingTheKey = [
  ...hello,
  { role: "user", content: `${echoedKey} (pasted back)`, timestamp: 2 },
  {
    role: "assistant",
    content: [{ type: "toolCall", id: "call_1", name: "save_note", arguments: { [LOCAL_KEY]: LOCAL_KEY } }],
    api: "openai-completions",
    provider: "local",
    model: "fixture-tools",
    usage: zeroUsage(),
    stopReason: "toolUse",
    timestamp: 3,
  },
  {
    role: "toolResult",
    toolCallId: "call_1",
    toolName: "save_note",
    content: [{ type: "text", text: LOCAL_KEY }],
    isError: false,
    timestamp: 4,
  },
];

/** One request of the sweep: the route it is for, what it is, and the status it must get. */
interface Sweep {
  route: ApiRouteName | "unrouted";
  what: string;
  status: number;
  path: string;
  init?: RawRequest;
}

const post = (content: string): RawRequest => ({ method: "POST", headers: auth, body: content });
const read: RawRequest = { headers: auth };
const streamCalled = (provider: string, model: string, messages: unknown[], callId?: string) =>
  post(body(provider, model, messages, callId ? { metadata: { callId } } : {}));

/** In order: the calls whose payloads are read later are made first. */
const SWEEP: Sweep[] = [
  { route: "session", what: "the token", status: 200, path: API_ROUTES.session.path },
  { route: "models", what: "the list", status: 200, path: API_ROUTES.models.path },
  // An upstream that echoes the Authorization header it got: the key comes back in the reply's text.
  {
    route: "stream",
    what: "an upstream echoing the key",
    status: 200,
    path: API_ROUTES.stream.path,
    init: streamCalled("local", "fixture-echo-auth", hello, "sweep-echo-0000001"),
  },
  // Later turns carry the key back in every place a conversation can.
  {
    route: "stream",
    what: "a turn carrying the key",
    status: 200,
    path: API_ROUTES.stream.path,
    init: streamCalled("local", "fixture-tools", carryingTheKey, "sweep-carry-000001"),
  },
  // The offline models keep the conversation as objects in their payload: the key as an argument's name.
  {
    route: "stream",
    what: "an offline model answering a turn carrying the key",
    status: 200,
    path: API_ROUTES.stream.path,
    init: streamCalled("mirror", "mirror-instant", carryingTheKey, "sweep-mirror-00001"),
  },
  {
    route: "stream",
    what: "an upstream refusing the call (401)",
    status: 200,
    path: API_ROUTES.stream.path,
    init: streamCalled("local", "fixture-401", carryingTheKey),
  },
  {
    route: "stream",
    what: "an upstream breaking mid-stream",
    status: 200,
    path: API_ROUTES.stream.path,
    init: streamCalled("local", "fixture-break", carryingTheKey),
  },
  {
    route: "payload",
    what: "the echoing call's kept payload",
    status: 200,
    path: payloadPath("sweep-echo-0000001"),
    init: read,
  },
  {
    route: "payload",
    what: "a kept payload carrying the key",
    status: 200,
    path: payloadPath("sweep-carry-000001"),
    init: read,
  },
  {
    route: "payload",
    what: "an offline model's kept payload",
    status: 200,
    path: payloadPath("sweep-mirror-00001"),
    init: read,
  },
  {
    route: "preview",
    what: "a preview carrying the key",
    status: 200,
    path: API_ROUTES.preview.path,
    init: post(body("local", "fixture-tools", carryingTheKey)),
  },
  {
    route: "preview",
    what: "an offline model's preview carrying the key",
    status: 200,
    path: API_ROUTES.preview.path,
    init: post(body("mirror", "mirror-instant", carryingTheKey)),
  },
  // The server's own refusals.
  {
    route: "stream",
    what: "a wrong token",
    status: 401,
    path: API_ROUTES.stream.path,
    init: {
      ...post(body("local", "fixture-tools", hello)),
      headers: { ...auth, Authorization: "Bearer wrong" },
    },
  },
  {
    route: "stream",
    what: "malformed JSON",
    status: 400,
    path: API_ROUTES.stream.path,
    init: post("{ not json"),
  },
  {
    route: "stream",
    what: "an unknown model",
    status: 400,
    path: API_ROUTES.stream.path,
    init: post(body("local", "no-such-model", carryingTheKey)),
  },
  { route: "preview", what: "the wrong method", status: 405, path: API_ROUTES.preview.path, init: read },
  {
    route: "payload",
    what: "a call never made",
    status: 404,
    path: payloadPath("sweep-never-000001"),
    init: read,
  },
  {
    route: "payload",
    what: "a malformed call id",
    status: 400,
    path: "/api/calls/%E0%A4%A/payload",
    init: read,
  },
  { route: "unrouted", what: "no such route", status: 404, path: "/api/nothing-here", init: read },
];

describe("the secret sweep", () => {
  it("finds the configured key in no answer of any route, errors included", async () => {
    const { port, server } = await loopback.proxy();
    const answers: { what: string; reply: Reply }[] = [];
    try {
      for (const { what, status, path, init } of SWEEP) {
        const reply = await sendRequest(port, path, init);
        expect(reply.status, `${what}: ${reply.body.slice(0, 200)}`).toBe(status);
        answers.push({ what, reply });
      }
    } finally {
      server.close();
    }
    // The key did go out where it must: to the upstream, in its header and in the conversation.
    expect(JSON.stringify(loopback.fixture.requests)).toContain(LOCAL_KEY);
    expect(answers[2]?.reply.body).toContain("[redacted]");
    // Every route of the API was swept.
    expect(new Set(SWEEP.map(({ route }) => route))).toEqual(
      new Set([...Object.keys(API_ROUTES), "unrouted"]),
    );
    for (const { what, reply } of answers)
      expect(`${JSON.stringify(reply.headers)}\n${reply.body}`, what).not.toContain(LOCAL_KEY);
  });
});
