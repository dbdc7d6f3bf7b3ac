import { MirrorApi } from "../../shared/mirror/mirror-api.ts";
import { sseFrame } from "../../shared/proxy-events.ts";
import { ModelCatalog } from "../models/model-catalog.svelte.ts";
import { Notices } from "../notices/notices.svelte.ts";
import { FakeLocks } from "../storage/fake-locks.ts";
import { MemorySessionStore } from "../storage/memory-store.ts";
import { SessionLocks, TabChannel } from "../storage/tab-sync.ts";
import type { SessionDeps } from "./session-deps.ts";
import { defaultSettings, type SessionSettings } from "./session-settings.ts";
import type { StreamRouter } from "./stream-route.ts";
import type { ToolDefinition } from "./tools/tool-definitions.ts";

/**
 * Sessions answered by the real offline Mirror (the shared MirrorApi the page's in-page proxy serves), with
 * the real runtime, storage in memory and fake locks: every request is streamed, recorded and kept with
 * its payload exactly as the page does without a proxy. `bodies` are the `/api/stream` requests sent.
 */
export function mirrorWorld() {
  const api = new MirrorApi({ describeUnknownModel: (provider, id) => `no ${provider}/${id} here` });
  const bodies: { context: { messages: { role: string }[] }; options: Record<string, unknown> }[] = [];
  const transport: typeof fetch = async (_input, init) => {
    const body = await new Response(init?.body).text();
    bodies.push(JSON.parse(body) as (typeof bodies)[number]);
    const events = api.stream(body, init?.signal ?? new AbortController().signal);
    const encoder = new TextEncoder();
    const frames = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = await events.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(sseFrame(next.value)));
      },
      cancel() {
        void events.return(undefined);
      },
    });
    return new Response(frames, { status: 200, headers: { "Content-Type": "text/event-stream" } });
  };
  const router: StreamRouter = {
    route: async () => ({
      proxyUrl: "http://in-page.test",
      authToken: "t",
      transport,
      settled: () => undefined,
    }),
    payload: async (callId) =>
      JSON.parse(await api.payload(callId)) as Awaited<ReturnType<NonNullable<StreamRouter["payload"]>>>,
  };
  const store = new MemorySessionStore();
  const locks = new FakeLocks();
  const deps = (): SessionDeps => ({
    store,
    catalog: new ModelCatalog(),
    router,
    channel: new TabChannel(`mirror-world-${Math.random()}`),
    locks: new SessionLocks(locks.asLockManager()),
    notices: new Notices(),
    tabId: "tab",
  });
  return { store, bodies, deps };
}

/** Settings on Mirror without pacing, with the given changes. */
export function mirrorSettings(changes: Partial<SessionSettings> = {}): SessionSettings {
  return { ...defaultSettings(), model: { provider: "mirror", id: "mirror-instant" }, ...changes };
}

/** A tool whose result is a template over its arguments: Mirror calls it when asked "call lookup_order with {…}". */
export const lookup: ToolDefinition = {
  name: "lookup_order",
  description: "Looks up an order by its id.",
  parameters: { type: "object", properties: { id: { type: "integer" } }, required: ["id"] },
  source: { kind: "template", template: '{"id": {{id}}, "status": "shipped"}' },
  enabled: true,
};

/** A tool whose result the person types: the run waits for it. */
export const askHuman: ToolDefinition = {
  name: "ask_human",
  description: "Asks the person at the keyboard.",
  parameters: { type: "object", properties: { question: { type: "string" } } },
  source: { kind: "ask" },
  enabled: true,
};
