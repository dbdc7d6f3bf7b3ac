import type { Api, Message, Model } from "@earendil-works/pi-ai";
import { describe, expect, it } from "vitest";
import { CallLog } from "../agent/recording/call-log.svelte.ts";
import { DEFAULT_CONTEXT_SETTINGS } from "../messages/policies.ts";
import { projectModelView } from "../model-view/project.ts";
import { projectSession } from "../model-view/session-projection.ts";
import { modelFromRef } from "../models/model-ref.ts";
import { MemorySessionStore } from "../storage/memory-store.ts";
import { SCHEMA_VERSION, type Captured, type SessionMeta } from "../storage/records.ts";
import { syntheticSession } from "./anatomy.test-support.ts";
import { SessionAnatomy, type AnatomyHost } from "./anatomy-state.svelte.ts";

/** A stored session with the synthetic session's entries and, unless told otherwise, its three calls. */
async function host(options: { calls?: boolean; window?: number } = {}): Promise<AnatomyHost> {
  const session = syntheticSession();
  const store = new MemorySessionStore();
  const meta: SessionMeta = {
    schema: SCHEMA_VERSION,
    id: "s",
    title: "Synthetic",
    titleIsCustom: true,
    createdAt: 0,
    updatedAt: 0,
    messageCount: session.entries.length,
    nextSeq: session.entries.length,
    revision: 0,
    leafId: session.entries.at(-1)?.id ?? null,
    settings: {},
  };
  await store.createSession(meta, session.entries);
  if (options.calls !== false)
    for (const [index, call] of session.calls.entries()) {
      const body = session.bodies[index];
      const { schema: _schema, sessionId: _session, seq: _seq, ...summary } = call;
      // The second call's messages were cut at the size limit.
      const messages: Captured<Message[]> =
        index === 1 || body?.kind !== "kept"
          ? { kept: "truncated", text: "[{", bytes: 20_000 }
          : { kept: "all", value: body.messages, bytes: 1_000 };
      await store.appendCall("s", {
        summary,
        body: {
          messages,
          sources: body?.kind === "kept" ? body.sources : [],
          payload: { kept: "none", bytes: 0, reason: "not captured" },
        },
      });
    }
  const projection = projectSession(session.entries);
  const model = (ref: { provider: string; id: string }): Model<Api> => ({
    ...modelFromRef(ref),
    contextWindow: options.window ?? 0,
  });
  return {
    id: "s",
    calls: new CallLog(store, "s"),
    entries: session.entries,
    meta,
    modelView: projectModelView(projection, DEFAULT_CONTEXT_SETTINGS),
    projection,
    model: model({ provider: "mirror", id: "mirror" }),
    modelOf: model,
    factIndexOf: (entryId) => projection.factIds.indexOf(entryId),
  };
}

describe("the anatomy of a stored session", () => {
  it("reads every call, says which it cannot compose, and shows any of them", async () => {
    const anatomy = new SessionAnatomy(await host({ window: 10_000 }));
    await anatomy.sync();
    expect(anatomy.calls.map((call) => [call.seq, call.basis, call.unknown !== undefined])).toEqual([
      [0, "usage", false],
      [1, "usage", true],
      [2, "usage", false],
    ]);
    expect(anatomy.rebilling).toMatchObject({ counted: 2, unknown: 1 });
    expect(anatomy.points.map((point) => point.tokens)).toEqual([600, 4_600, 5_000]);
    expect(anatomy.fromReplies).toBe(false);

    await anatomy.select(2);
    expect(anatomy.shown.composition?.total).toBe(5_000);
    expect(anatomy.shown.composition?.categories[0]?.category).toBe("toolResults");
    await anatomy.select(1);
    expect(anatomy.shown).toMatchObject({
      composition: undefined,
      unknown: "its messages were cut at 2 bytes of 20,000",
    });
    await anatomy.select("next");
    expect(anatomy.shown.composition?.basis.kind).toBe("estimate");
    expect(anatomy.label(anatomy.calls[0]?.call.leafId ?? null).text).toMatch(/^Fact 2 · user · U+/);
  });

  it("with no calls recorded, draws the timeline from the replies' usage and never throws", async () => {
    const anatomy = new SessionAnatomy(await host({ calls: false }));
    await anatomy.sync();
    expect(anatomy.calls).toEqual([]);
    expect(anatomy.fromReplies).toBe(true);
    expect(anatomy.points.map((point) => point.basis)).toEqual(["unknown", "unknown"]);
    expect(anatomy.points.every((point) => point.window === undefined)).toBe(true);
    expect(anatomy.findings).toEqual([]);
    const document = await anatomy.lhar({ name: "pi-playground", version: "0" });
    expect(document.lhar.entries).toEqual([]);
  });
});
