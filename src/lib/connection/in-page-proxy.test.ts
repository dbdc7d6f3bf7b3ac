import { streamProxy } from "@earendil-works/pi-agent-core";
import { normalizeContext, type Message, type Model } from "@earendil-works/pi-ai";
import { describe, expect, it } from "vitest";
import { DEMO_TOOL_NAMES } from "../../shared/demo-tool-names.ts";
import { API_ROUTES, payloadPath } from "../../shared/api-routes.ts";
import { createInPageProxy } from "./in-page-proxy.ts";
import { withFetch } from "../agent/scoped-fetch.ts";
import { model } from "./proxy-connection.test-support.ts";

const proxy = createInPageProxy();
const IN_PAGE = "http://in-page.invalid";

const system: Message = {
  role: "system",
  content: "Be brief.",
  toolsAdded: Object.values(DEMO_TOOL_NAMES).map((name) => ({ name, description: name, parameters: {} })),
  timestamp: 0,
};
const user = (text: string): Message => ({ role: "user", content: [{ type: "text", text }], timestamp: 1 });

/** The Agent's path: pi's own streamProxy, its one request answered in the page. */
function run(target: Model<string>, messages: Message[], signal?: AbortSignal) {
  return withFetch(proxy.fetch, () =>
    streamProxy(target, normalizeContext({ messages }), { proxyUrl: IN_PAGE, authToken: "", signal }),
  );
}

describe("the in-page proxy, read by pi's streamProxy", () => {
  it("answers the mirror: the reply states what it received and quotes the question", async () => {
    const message = await run(model("mirror", "mirror-instant"), [system, user("hello there")]).result();
    expect(message.stopReason).toBe("stop");
    expect(message.content).toEqual([
      {
        type: "text",
        text: "I received 2 messages: system, user.\n\nThe last user message was:\n\n> hello there",
      },
    ]);
  });

  it("streams the mirror's tool calls, complete with arguments", async () => {
    const message = await run(model("mirror", "mirror-instant"), [
      system,
      user("compute 12 * (3 + 4)"),
    ]).result();
    expect(message.stopReason).toBe("toolUse");
    expect(message.content.at(-1)).toEqual({
      type: "toolCall",
      id: "mirror_2_0",
      name: DEMO_TOOL_NAMES.arithmetic,
      arguments: { expression: "12 * (3 + 4)" },
    });
  });

  it("refuses another model with the proxy's status and the sentence it was given", async () => {
    const message = await run(model("openai", "gpt-4o"), [system, user("hi")]).result();
    expect(message.stopReason).toBe("error");
    expect(message.errorMessage).toBe(
      "Proxy error: openai/gpt-4o needs a proxy, and none is connected: only the offline Mirror models run in this page. Choose one of them, or connect a proxy (the Proxy button beside the model picker).",
    );
  });

  it("stops the reply when the run is stopped", async () => {
    const controller = new AbortController();
    const stream = run(
      model("mirror", "mirror"),
      [system, user("a long question ".repeat(30))],
      controller.signal,
    );
    for await (const event of stream) {
      if (event.type === "text_delta") controller.abort();
    }
    const message = await stream.result();
    expect(message.stopReason).toBe("aborted");
  });
});

describe("the in-page proxy's other routes", () => {
  it("lists the offline models as GET /api/models does", async () => {
    const response = await proxy.fetch(`${IN_PAGE}/api/models`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { models: { id: string }[] };
    expect(body.models.map((entry) => entry.id)).toEqual(["mirror", "mirror-thinking", "mirror-instant"]);
  });

  it("answers a wrong method or path with the proxy's status and a JSON error", async () => {
    const wrong = await proxy.fetch(`${IN_PAGE}/api/stream`);
    expect(wrong.status).toBe(405);
    expect(await wrong.json()).toEqual({ error: "/api/stream accepts POST only." });
    expect((await proxy.fetch(`${IN_PAGE}/api/nothing`)).status).toBe(404);
  });

  it("keeps the payload of the call pi's streamProxy named in its metadata, and previews the next", async () => {
    const callId = "in-page-proxy-call-1";
    await withFetch(proxy.fetch, () =>
      streamProxy(
        model("mirror", "mirror-instant"),
        normalizeContext({ messages: [system, user("hello")] }),
        {
          proxyUrl: IN_PAGE,
          authToken: "",
          metadata: { callId },
        },
      ),
    ).result();
    const kept = await proxy.fetch(`${IN_PAGE}/api/calls/${callId}/payload`);
    expect(kept.status).toBe(200);
    const body = (await kept.json()) as { payload: { kept: string; value: unknown } };
    expect(body.payload).toMatchObject({
      kept: "all",
      value: { model: "mirror-instant", messages: [system, user("hello")], options: {} },
    });

    const preview = await proxy.fetch(`${IN_PAGE}/api/preview`, {
      method: "POST",
      body: JSON.stringify({
        model: { provider: "mirror", id: "mirror-instant" },
        context: { messages: [system, user("hello")] },
      }),
    });
    expect(await preview.json()).toEqual(body);
  });

  it("answers payload routes with the proxy's statuses", async () => {
    const unknown = await proxy.fetch(`${IN_PAGE}/api/calls/never-sent-call/payload`);
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: string }).error).toMatch(
      /^No payload is kept for call never-sent-call/,
    );
    expect((await proxy.fetch(`${IN_PAGE}/api/calls/bad/payload`)).status).toBe(400);
    // A malformed call id is a 500 before any check: here it was a fetch that threw instead of a status.
    const malformed = await proxy.fetch(`${IN_PAGE}/api/calls/%E0%A4%A/payload`);
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { error: string }).error).toMatch(/not valid percent-encoding/);
    expect(
      (await proxy.fetch(`${IN_PAGE}/api/calls/never-sent-call/payload`, { method: "POST" })).status,
    ).toBe(405);
    expect((await proxy.fetch(`${IN_PAGE}/api/preview`)).status).toBe(405);
  });

  it("answers the routes the shared table marks for the page, each with its one method, and no other", async () => {
    const callId = "never-sent-call";
    for (const [name, spec] of Object.entries(API_ROUTES)) {
      const path = name === "payload" ? payloadPath(callId) : spec.path;
      const other = spec.method === "GET" ? "POST" : "GET";
      const wrong = await proxy.fetch(`${IN_PAGE}${path}`, { method: other });
      expect(wrong.status, `${other} ${path}`).toBe(spec.inPage ? 405 : 404);
      // With its method, a route of the page's is answered by the route itself (a refused body is its own
      // 400, an unknown call its own 404); any other is not the page's to answer.
      const right = await proxy.fetch(`${IN_PAGE}${path}`, {
        method: spec.method,
        ...(spec.method === "POST" ? { body: "{}" } : {}),
      });
      const said = right.ok ? "" : (((await right.json()) as { error?: string }).error ?? "");
      if (spec.inPage) expect(said, `${spec.method} ${path}`).not.toMatch(/^No such API endpoint/);
      else expect(said, `${spec.method} ${path}`).toMatch(/^No such API endpoint/);
    }
  });
});
