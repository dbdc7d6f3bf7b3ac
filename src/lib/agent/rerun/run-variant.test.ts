import type { Message } from "@earendil-works/pi-ai";
import { describe, expect, it } from "vitest";
import { ChatSession } from "../chat-session.svelte.ts";
import { mirrorSettings, mirrorWorld } from "../mirror-world.test-support.ts";
import type { StreamRouter } from "../stream-route.ts";
import { runVariant } from "./run-variant.ts";
import { buildVariantRequest, seedDraft } from "./variant-draft.ts";

async function until(condition: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 2000 && !condition(); attempt++)
    await new Promise((resolve) => setTimeout(resolve, 5));
  if (!condition()) throw new Error("timed out");
}

describe("a recorded call re-run with changes, on Mirror", () => {
  it("sends the original request with only the change, keeps the result as a variant linked to the original, and leaves the facts alone", async () => {
    const { deps, bodies, store } = mirrorWorld();
    const session = await ChatSession.create(deps(), {
      settings: mirrorSettings(),
    });
    await session.send("hello there");
    await session.calls.load();
    await until(() => session.calls.calls.length === 1);
    const [original] = session.calls.calls;
    if (!original) throw new Error("no call");
    const body = await session.calls.body(original.seq);
    if (body?.messages.kept !== "all") throw new Error("messages not kept");
    const factsBefore = session.facts.length;

    const built = buildVariantRequest(
      { ...seedDraft(original, body.messages.value), systemPrompt: "Be thorough." },
      original.options,
      session.model.api,
    );
    if (!built.ok) throw new Error(JSON.stringify(built.problems));
    const variant = await session.runVariant(original, built.request, new AbortController().signal);

    // The request differs from the original's in the system prompt only.
    const [first, second] = bodies;
    const expected = structuredClone(first?.context.messages) as Message[];
    (expected[0] as { content: unknown }).content = "Be thorough.";
    expect(second?.context.messages).toEqual(expected);
    // The same options, but for the call's own id, which names each record.
    const withoutId = (options: Record<string, unknown> | undefined) => ({
      ...options,
      metadata: { ...(options?.metadata as object), callId: "" },
    });
    expect(withoutId(second?.options)).toEqual(withoutId(first?.options));
    expect(second?.options.metadata).toMatchObject({ callId: expect.any(String) });
    expect((second?.options.metadata as { callId: string }).callId).not.toBe(
      (first?.options.metadata as { callId: string }).callId,
    );
    expect(variant).toMatchObject({ variantOf: original.id, provider: "mirror", modelId: "mirror-instant" });
    expect(variant.replyEntryId).toBeUndefined();
    const variantBody = await session.calls.body(variant.seq);
    expect(variantBody?.reply?.kept).toBe("all");
    expect(JSON.stringify(variantBody?.reply)).toContain("hello there");
    expect(variantBody?.payload.kept).toBe("all");
    expect(session.facts.length).toBe(factsBefore);
    expect(session.calls.calls.map((call) => call.id)).toEqual([original.id, variant.id]);

    // Stored: a session opened again lists the variant with its link.
    const again = await ChatSession.open(deps(), session.id);
    await again?.calls.load();
    expect(again?.calls.calls.at(-1)).toMatchObject({ id: variant.id, variantOf: original.id });
    expect((await store.readCallBody(session.id, variant.seq))?.reply?.kept).toBe("all");
  });

  it("stops a re-run whose stream never ends, and says so on the recorded variant", async () => {
    const { deps } = mirrorWorld();
    const session = await ChatSession.create(deps(), { settings: mirrorSettings() });
    await session.send("hi");
    await session.calls.load();
    await until(() => session.calls.calls.length === 1);
    const original = session.calls.calls[0];
    if (!original) throw new Error("no call");
    // A proxy that answers and then sends nothing, forever.
    const silent: typeof fetch = async (_input, init) =>
      new Response(
        new ReadableStream<Uint8Array>({
          start(controller) {
            init?.signal?.addEventListener("abort", () => controller.error(new Error("aborted")));
          },
        }),
        { status: 200, headers: { "Content-Type": "text/event-stream" } },
      );
    const router: StreamRouter = {
      route: async () => ({
        proxyUrl: "http://never.test",
        authToken: "t",
        transport: silent,
        settled: () => undefined,
      }),
    };
    const recorded: string[] = [];
    const variant = await runVariant(
      {
        store: deps().store,
        sessionId: session.id,
        router,
        modelOf: (ref) => session.modelOf(ref),
        keptBytes: () => 0,
        recorded: (call) => recorded.push(call.id),
      },
      original,
      {
        provider: "mirror",
        modelId: "mirror-instant",
        messages: [{ role: "user", content: "hi", timestamp: 1 }],
        options: {},
      },
      new AbortController().signal,
      50,
    );
    expect(variant.outcome.stopReason).toBe("aborted");
    expect(variant.outcome.errorMessage).toBe("The re-run was stopped after 0.05 s without an end.");
    expect(recorded).toEqual([variant.id]);
  });
});
