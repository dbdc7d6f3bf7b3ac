import type { Api, Message, Model } from "@earendil-works/pi-ai";
import type { CallLog } from "../agent/recording/call-log.svelte.ts";
import type { SessionEntry } from "../messages/entries.ts";
import type { ModelView } from "../model-view/project.ts";
import { factOf, type SessionProjection } from "../model-view/session-projection.ts";
import type { SessionMeta } from "../storage/records.ts";
import { preview, roleBadge } from "../messages/preview.ts";
import { compose, type Composition, type MessageSource } from "./composition.ts";
import { findings, type Finding } from "./findings.ts";
import { toLhar, type LharBody, type LharCreator, type LharDocument } from "./lhar.ts";
import { rebill, type Rebilling } from "./rebilling.ts";
import { readBody } from "./call-body.ts";
import type { Change } from "./call-changes.ts";
import { CallAnalyzer, recordedWindow, type CallAnatomy } from "./session-anatomy.ts";
import { recordedComposition } from "./recorded-composition.ts";
import { pointsOfCalls, pointsOfReplies, type TimelinePoint } from "./timeline.ts";

/** What the anatomy reads of a session (the chat session provides all of it). */
export interface AnatomyHost {
  readonly id: string;
  readonly calls: CallLog;
  readonly entries: readonly SessionEntry[];
  readonly meta: SessionMeta;
  readonly modelView: ModelView;
  readonly projection: SessionProjection;
  readonly model: Model<Api>;
  modelOf(ref: { provider: string; id: string }): Model<Api>;
  factIndexOf(entryId: string): number;
}

/** A request whose composition is shown: the next one (live), or a recorded call. */
export interface ShownRequest {
  target: number | "next";
  composition: Composition | undefined;
  /** Why the composition is not known (a recorded call whose messages were not kept). */
  unknown?: string;
  window: number | undefined;
  anatomy?: CallAnatomy;
}

export interface FactLabel {
  text: string;
  /** Position of the fact on the current path; -1 when it is on another branch or gone. */
  factIndex: number;
}

/** Publish progress at least this often while reading a long session's calls. */
const SLICE_MS = 12;

/**
 * The anatomy of one session: every recorded call read once (its body from the call log, one after the
 * other, so a long session is read without holding up the page), the next call composed live from the
 * model view, and what follows from both: the timeline, re-billing per fact and the findings.
 */
export class SessionAnatomy {
  readonly #host: AnatomyHost;
  readonly #analyzer: CallAnalyzer;
  #anatomies = $state.raw<CallAnatomy[]>([]);
  #reading = $state(false);
  #problem = $state<string | undefined>(undefined);
  #target = $state<number | "next">("next");
  #recorded = $state.raw<ShownRequest | undefined>(undefined);
  #syncing: Promise<void> | undefined;
  #again = false;

  constructor(host: AnatomyHost) {
    this.#host = host;
    this.#analyzer = new CallAnalyzer({
      entries: () => host.entries,
      ...(host.meta.forkedFrom ? { forkedFrom: { title: host.meta.forkedFrom.title } } : {}),
      windowOf: (provider, modelId) => this.windowOf(provider, modelId),
    });
  }

  /** The model's context window, as the catalog knows it now; undefined when unknown. */
  windowOf(provider: string, modelId: string): number | undefined {
    const window = this.#host.modelOf({ provider, id: modelId }).contextWindow;
    return window > 0 ? window : undefined;
  }

  /** Every call read so far, with windows as the catalog knows them now (it may load after the calls). */
  readonly calls: CallAnatomy[] = $derived(
    this.#anatomies.map((call) => {
      const window = this.windowOf(call.call.provider, call.call.modelId) ?? recordedWindow(call.call);
      return window === call.window ? call : { ...call, window };
    }),
  );

  get reading(): boolean {
    return this.#reading;
  }
  get problem(): string | undefined {
    return this.#problem ?? this.#host.calls.problem;
  }
  get target(): number | "next" {
    return this.#target;
  }

  /** The next request as the model view stands now, every message traced to its fact. */
  readonly next = $derived.by(() => {
    const view = this.#host.modelView;
    const { facts, factIds } = this.#host.projection;
    const sources: MessageSource[] = view.messages.map((_, index) => {
      const factIndex = view.sourceOf[index] ?? -1;
      return {
        entryId: factIds[factIndex] ?? null,
        role: facts[factIndex]?.role,
      };
    });
    const model = this.#host.model;
    return {
      messages: view.messages as readonly Message[],
      sources,
      composition: compose(view.messages, sources),
      window: model.contextWindow > 0 ? model.contextWindow : undefined,
    };
  });

  readonly rebilling: Rebilling = $derived(rebill(this.#anatomies));

  /** One point per call; for a session recorded before calls were, one per reply that carries usage. */
  readonly points: TimelinePoint[] = $derived.by(() => {
    if (this.calls.length > 0) return pointsOfCalls(this.calls);
    if (this.#host.calls.state !== "ready") return [];
    return pointsOfReplies(this.#host.entries, (provider, modelId) => this.windowOf(provider, modelId));
  });

  /** True when the points come from the replies' usage, not from recorded calls. */
  readonly fromReplies = $derived(this.calls.length === 0 && this.points.length > 0);

  /** What changed after the last call: it shapes the next one. */
  readonly pendingChanges: Change[] = $derived.by(() => {
    void this.#anatomies;
    void this.#host.entries;
    return this.#analyzer.pendingChanges();
  });

  /** Every tool the model called, on any branch. */
  readonly calledTools: ReadonlySet<string> = $derived.by(() => {
    const names = new Set<string>();
    for (const entry of this.#host.entries) {
      if (entry.type !== "message" || entry.message.role !== "assistant") continue;
      for (const part of entry.message.content) if (part.type === "toolCall") names.add(part.name);
    }
    return names;
  });

  readonly findings: Finding[] = $derived.by(() => {
    const { facts, factIds } = this.#host.projection;
    const fates = this.#host.modelView.fates;
    return findings({
      calls: this.calls,
      rebilling: this.rebilling,
      next: this.next,
      path: facts.map((fact, index) => ({
        entryId: factIds[index] ?? "",
        fact,
        fate: fates[index] ?? "sent",
      })),
      roleOf: (entryId) => this.#analyzer.index.roleOf(entryId),
      calledTools: this.calledTools,
    });
  });

  /** The request whose composition is shown. */
  get shown(): ShownRequest {
    const target = this.#target;
    if (target === "next") return { target, composition: this.next.composition, window: this.next.window };
    const recorded = this.#recorded;
    const anatomy = this.calls.find((call) => call.seq === target);
    if (recorded?.target === target)
      return { ...recorded, ...(anatomy ? { anatomy, window: anatomy.window } : {}) };
    return { target, composition: undefined, window: anatomy?.window, ...(anatomy ? { anatomy } : {}) };
  }

  /** Show the next call, or a recorded one (its messages are read and composed). */
  async select(target: number | "next"): Promise<void> {
    this.#target = target;
    if (target === "next") return;
    const anatomy = this.#anatomies.find((call) => call.seq === target);
    if (!anatomy) return;
    let stored;
    try {
      stored = await this.#host.calls.body(target);
    } catch (error) {
      stored = undefined;
      this.#problem = `Call #${target + 1} could not be read: ${(error as Error).message}`;
    }
    if (this.#target !== target) return;
    const body = readBody(stored);
    const measured = recordedComposition(anatomy.call);
    this.#recorded = measured
      ? { target, composition: measured, window: anatomy.window }
      : body.kind === "kept"
        ? {
            target,
            composition: compose(
              body.messages,
              this.#analyzer.index.sources(body.sources),
              anatomy.call.outcome.usage,
            ),
            window: anatomy.window,
          }
        : { target, composition: undefined, unknown: body.reason, window: anatomy.window };
  }

  /** Read the calls recorded since the last look. Safe to call often: one reading at a time. */
  sync(): Promise<void> {
    if (this.#syncing) {
      this.#again = true;
      return this.#syncing;
    }
    this.#syncing = this.#read().finally(() => {
      this.#syncing = undefined;
      if (this.#again) {
        this.#again = false;
        void this.sync();
      }
    });
    return this.#syncing;
  }

  async #read(): Promise<void> {
    const log = this.#host.calls;
    await log.load();
    const calls = log.calls;
    const done = this.#anatomies;
    const lastSeq = done.at(-1)?.seq ?? -1;
    const todo = calls.filter((call) => call.seq > lastSeq);
    if (todo.length === 0) return;
    this.#reading = true;
    const added: CallAnatomy[] = [];
    let sliceStart = performance.now();
    try {
      for (const call of todo) {
        let body;
        try {
          body = readBody(await log.body(call.seq));
        } catch (error) {
          body = readBody(undefined, `its body could not be read (${(error as Error).message})`);
        }
        added.push(this.#analyzer.add(call, body));
        if (performance.now() - sliceStart > SLICE_MS) {
          this.#anatomies = [...this.#anatomies, ...added.splice(0)];
          await new Promise((resolve) => setTimeout(resolve, 0));
          sliceStart = performance.now();
        }
      }
    } finally {
      if (added.length > 0) this.#anatomies = [...this.#anatomies, ...added];
      this.#reading = false;
    }
    // A session of calls with no facts (an imported LHAR file or request) has no next call of its own
    // to show: the composition opens on its last recorded call.
    const last = this.#anatomies.at(-1);
    if (this.#target === "next" && this.#host.entries.length === 0 && last) await this.select(last.seq);
  }

  /** A fact named for people: its number on the current path, its role and a preview. */
  label(entryId: string | null): FactLabel {
    if (entryId === null) return { text: "no fact (added on the way to the provider)", factIndex: -1 };
    const factIndex = this.#host.factIndexOf(entryId);
    const entry = this.#analyzer.index.entry(entryId);
    const fact = entry ? factOf(entry) : undefined;
    if (!fact) return { text: `entry ${entryId} (no longer in the session)`, factIndex: -1 };
    const head = factIndex >= 0 ? `Fact ${factIndex + 1}` : "Fact on another branch";
    return { text: `${head} · ${roleBadge(fact)} · ${preview(fact)}`, factIndex };
  }

  /** The session's calls as LHAR, with each call's captured provider payload where there is one. */
  async lhar(creator: LharCreator): Promise<LharDocument> {
    await this.sync();
    const bodies = new Map<number, LharBody>();
    for (const call of this.#anatomies) {
      const body = await this.#host.calls.body(call.seq).catch(() => undefined);
      if (!body) continue;
      const payload = body.payload.kept === "all" ? body.payload.value : undefined;
      bodies.set(call.seq, {
        ...(payload !== undefined ? { payload } : {}),
        requestBytes: payload !== undefined ? body.payload.bytes : body.messages.bytes,
      });
    }
    return toLhar({
      sessionId: this.#host.id,
      createdAt: this.#host.meta.createdAt,
      calls: this.calls,
      bodies,
      creator,
    });
  }
}
