import type { AgentMessage, ThinkingLevel } from "@earendil-works/pi-agent-core";
import {
  contentText,
  type Api,
  type AssistantMessage,
  type AssistantMessageEvent,
  type Model,
} from "@earendil-works/pi-ai";
import type { ModelInfo } from "../../shared/api-types.ts";
import type { Sampling } from "../../shared/sampling.ts";
import type { SessionEntry } from "../messages/entries.ts";
import type { Visibility } from "../messages/policies.ts";
import type { PolicyRole } from "../messages/types.ts";
import { UsageSummer } from "../models/usage.ts";
import { ModelViewProjector, type ModelView } from "../model-view/project.ts";
import type { SessionProjection } from "../model-view/session-projection.ts";
import type { CallRecord, EntryRecord, SessionMeta } from "../storage/records.ts";
import type { SessionWriter, WriterStatus } from "../storage/session-writer.ts";
import type { CreateOptions } from "../storage/session-store.ts";
import type { ApprovalDecision } from "./approvals.ts";
import type { CallGate } from "./call-gate.svelte.ts";
import { CallPreferences } from "./call-preferences.svelte.ts";
import type { MessageQueues, RunQueue } from "./message-queues.svelte.ts";
import type { SessionInit } from "./new-session.ts";
import type { SessionDeps } from "./session-deps.ts";
import type { Replica } from "./replica.svelte.ts";
import type { SessionEvents } from "./session-events.ts";
import { seenFactCount } from "./seen-facts.ts";
import { yieldToPage } from "./yield-to-page.ts";
import { CallLog } from "./recording/call-log.svelte.ts";
import type { CallRecorder, CallRecorderHost } from "./recording/call-recorder.ts";
import type { Delivery, MessageDelivery } from "./message-delivery.ts";
import type { RunController } from "./run-controller.svelte.ts";
import type { LastRequest, NextCallPreview, SessionAgent } from "./session-agent.svelte.ts";
import type { SessionBranches } from "./session-branches.svelte.ts";
import type { SessionRuntime } from "./session-runtime.ts";
import type { SessionSettingsState } from "./session-settings.svelte.ts";
import type { QueueMode, QueueModes, SessionSettings } from "./session-settings.ts";
import type { Transcript } from "./transcript.svelte.ts";
import type { TranscriptIndex } from "./transcript-index.ts";
import type { ToolAnswers } from "./tool-answers.svelte.ts";
import type { VariantRequest } from "./rerun/variant-draft.ts";
import type { ModelRef } from "../models/model-ref.ts";
import type { ToolDefinition } from "./tools/tool-definitions.ts";
import type { ReplayChanges } from "./replay/replay-plan.ts";
import type { ReplayRun } from "./replay/replay-run.svelte.ts";
import type { ColumnSetup, ColumnTurn, VariantLink } from "./variant-sets/variant-set.ts";
import { viewPasses } from "./view-passes.ts";

/**
 * One open session, as the UI sees it. It composes the parts that each do one job — the transcript (the
 * facts, their only writer), the writer (storage), the settings, the replica (other tabs, and the
 * metadata), the call recorder, the session's pi `Agent`, the run controller (runs, and the delivery of
 * messages) and the branches (the session tree) — and derives the model view from the facts.
 *
 * The parts are made in the order they need each other and talk back through the session's typed events
 * (`SessionEvents`: written, settings stored, call recorded, metadata adopted, storage status), so none
 * holds a closure over a part made after it. One rule for what the page reaches: a part the page uses
 * whole and on its own (the calls, the branches, the queues, the call gate, the tool answers) is exposed
 * read-only; every other part is private, and what the page asks of it is a method here that delegates to
 * the one part that owns it.
 */
export class ChatSession {
  readonly id: string;
  readonly #deps: SessionDeps;
  readonly #transcript: Transcript;
  readonly #writer: SessionWriter;
  readonly #settings: SessionSettingsState;
  readonly #replica: Replica;
  readonly #agent: SessionAgent;
  readonly #runs: RunController;
  readonly #delivery: MessageDelivery;
  readonly #recorder: CallRecorder;
  readonly #callHost: CallRecorderHost;
  readonly #preferences: CallPreferences;
  readonly #events: SessionEvents;
  /** The model calls of this session, read when someone looks. */
  readonly calls: CallLog;
  /** The session as a tree: where it is, what its branches are called, and the moves on it. */
  readonly branches: SessionBranches;
  #storage = $state.raw<WriterStatus>({ unsaved: 0, error: undefined });
  /** The replay made last in this tab (running, or how it ended). */
  #replay = $state.raw<ReplayRun | undefined>(undefined);

  /** What the model replies of this session used and cost, from their usage records. */
  // A cache, not state: a session that only grew adds its new replies to the last total.
  readonly #usageSummer = new UsageSummer();
  readonly usage = $derived(this.#usageSummer.sum(this.facts));

  /** Exactly what the next request will carry (before the new prompt is appended), with provenance. */
  // A cache, not state: the model view of a session that only grew extends the previous one.
  readonly #viewProjector = new ModelViewProjector();
  readonly modelView: ModelView = $derived(
    this.#viewProjector.project(this.projection, this.settings.context),
  );

  /** The session's model as the Agent carries it (the catalog's record once loaded). */
  readonly model: Model<Api> = $derived(this.modelOf(this.settings.model));

  /** A model by provider and id, with what the catalog knows of it (its API, whether it takes images). */
  modelOf(ref: { provider: string; id: string }): Model<Api> {
    return this.#agent.modelOf(ref);
  }

  /** How many leading facts the model has already seen (see `seenFactCount`). */
  readonly seenCount = $derived(seenFactCount(this.facts, this.lastRequest?.factCount));

  private constructor(
    deps: SessionDeps,
    meta: SessionMeta,
    stored: { records: readonly EntryRecord[]; meta: SessionMeta | undefined },
    index: TranscriptIndex,
    runtime: SessionRuntime,
  ) {
    const {
      CallRecorder,
      Replica,
      RunController,
      SessionAgent,
      SessionBranches,
      SessionEvents,
      SessionMetaState,
      SessionSettingsState,
      SessionWriter,
      StreamingReply,
      Transcript,
    } = runtime;
    this.#deps = deps;
    this.id = meta.id;
    // The parts are made in the order they need each other; what a part learns that an earlier one acts
    // on goes through the session's events, subscribed once every part exists (at the end).
    const events = new SessionEvents();
    this.#events = events;
    const lock = deps.locks.lockFor(meta.id);
    const knownMeta = new SessionMetaState(meta);
    const settings = new SessionSettingsState(
      {
        store: deps.store,
        sessionId: meta.id,
        notices: deps.notices,
        onStored: (next) => events.emit("settingsStored", { meta: next }),
      },
      meta.settings,
    );
    this.#settings = settings;
    const transcript = new Transcript(index, () => settings.current.context.applyCompaction);
    this.#transcript = transcript;
    const writer = new SessionWriter(deps.store, meta.id, stored, {
      onStatus: (status) => events.emit("storageStatus", { status }),
      onWritten: (result) => events.emit("written", { meta: result.meta }),
      exclusive: async (write) => (await lock.run(write)).acquired,
      meta: () => ({ ...knownMeta.current, settings: settings.current }),
      leaf: () => transcript.leafId,
    });
    this.#writer = writer;
    transcript.bindSink(writer);
    const reply = new StreamingReply({
      save: (message) => deps.store.saveInflight(meta.id, message, deps.tabId),
    });
    this.#replica = new Replica({
      store: deps.store,
      sessionId: meta.id,
      meta: knownMeta,
      locks: deps.locks,
      channel: deps.channel,
      tabId: deps.tabId,
      notices: deps.notices,
      transcript,
      writer,
      reply,
      events,
      onStored: deps.onStored,
    });
    this.calls = new CallLog(deps.store, meta.id, () => knownMeta.current.nextCallSeq ?? 0);
    // Where calls are kept: the session's own, and variants re-run from them.
    this.#callHost = {
      store: deps.store,
      sessionId: meta.id,
      keptBytes: () => knownMeta.current.callBytes ?? 0,
      fetchPayload: (callId) => deps.router.payload?.(callId),
      recorded: (call, next) => events.emit("callRecorded", { call, meta: next }),
      notices: deps.notices,
    };
    this.#recorder = new CallRecorder(this.#callHost);
    this.#preferences = deps.preferences ?? new CallPreferences();
    this.#agent = new SessionAgent({
      sessionId: meta.id,
      catalog: deps.catalog,
      router: deps.router,
      transcript,
      settings,
      recorder: this.#recorder,
      // The model view is derived from the transcript and the settings, both made above.
      modelView: () => this.modelView,
      preferences: this.#preferences,
    });
    this.#runs = new RunController({
      sessionId: meta.id,
      store: deps.store,
      channel: deps.channel,
      tabId: deps.tabId,
      notices: deps.notices,
      transcript,
      settings,
      writer,
      replica: this.#replica,
      recorder: this.#recorder,
      lock,
      agent: this.#agent,
      reply,
      readOnly: () => this.live,
    });
    this.#delivery = this.#runs.delivery;
    this.branches = new SessionBranches({ transcript, runs: this.#runs });

    // Who acts on what (the replica subscribed to what it keeps in step when it was made).
    events.on("callRecorded", ({ call }) => this.calls.added(call));
    events.on("metaAdopted", ({ meta: next, previous }) => this.#metaAdopted(next, previous));
    events.on("storageStatus", ({ status }) => this.#storageStatus(status));
  }

  /** Create and store a new session. Its first fact is the system message carrying prompt and tools. */
  static async create(
    deps: SessionDeps,
    init: SessionInit = {},
    options?: CreateOptions,
  ): Promise<ChatSession> {
    // Loaded when a session is first created: a returning visitor's page opens a stored one without it.
    const runtime = loadRuntime();
    const { storeNewSession } = await import("./new-session.ts");
    const { meta, entries, stored } = await storeNewSession(deps.store, init, options);
    const parts = await runtime;
    const index = await indexStored(parts, stored.records, meta.leafId);
    const session = new ChatSession(deps, meta, stored, index, parts);
    await session.#beforeFirstRender(stored.records.length);
    // Not stored: the writer creates the record on its next attempt, and its notice says what went wrong
    // meanwhile.
    if (!stored.meta) session.#writer.append(entries);
    deps.channel.post({ type: "sessions" });
    if (stored.meta) deps.onStored?.(stored.meta);
    return session;
  }

  /** Open a stored session; a reply that was streaming when the page went away comes back as interrupted. */
  static async open(deps: SessionDeps, id: string): Promise<ChatSession | undefined> {
    const runtime = loadRuntime();
    const loaded = await deps.store.loadSession(id);
    if (!loaded) return undefined;
    const parts = await runtime;
    const index = await indexStored(parts, loaded.records, loaded.meta.leafId);
    const session = new ChatSession(
      deps,
      loaded.meta,
      { records: loaded.records, meta: loaded.meta },
      index,
      parts,
    );
    await session.#beforeFirstRender(loaded.records.length);
    if (loaded.warnings.length > 0)
      deps.notices.post({
        key: `skipped:${id}`,
        severity: "warning",
        source: "storage",
        text: loaded.warnings.join(" "),
      });
    if (await deps.locks.isHeld(id)) session.setRunningElsewhere(true);
    // Catching up under the lock restores a reply whose page went away while it streamed.
    else if (loaded.inflight) await session.#runs.whileIdle(() => undefined);
    return session;
  }

  /**
   * A session of many entries is indexed a slice at a time (`indexStored`), and each pass over all its facts
   * that showing it reads (its projection, its model view, its usage) then runs in a task of its own, before
   * it is first shown: made and shown in one task, they took a third of a second at 100,000 entries. Each
   * pass keeps its result for the render: the transcript's projector, the model view's projector and the
   * usage summer answer the same input again without a pass (whether Svelte also keeps a `$derived` read
   * outside an effect is its own detail, not relied on). Smaller sessions, the most, go on at once.
   */
  async #beforeFirstRender(entries: number): Promise<void> {
    if (!separatesRender(entries)) return;
    const views = viewPasses.map((pass) => () => pass(this.facts));
    for (const pass of [() => this.facts, () => this.modelView, () => this.usage, ...views]) {
      await yieldToPage();
      pass();
    }
    await yieldToPage();
  }

  // --- state -------------------------------------------------------------------------------------

  get meta(): SessionMeta {
    return this.#replica.meta;
  }
  get facts(): readonly AgentMessage[] {
    return this.#transcript.facts;
  }

  /**
   * Run a recorded call again with changes, on Mirror or a real model, through the session's stream
   * route; the result is kept as a call of this session linked to the original (no fact is added).
   */
  async runVariant(original: CallRecord, request: VariantRequest, signal: AbortSignal): Promise<CallRecord> {
    const { runVariant } = await import("./rerun/run-variant.ts");
    const host = {
      ...this.#callHost,
      router: this.#deps.router,
      modelOf: (ref: ModelRef) => this.modelOf(ref),
    };
    return runVariant(host, original, request, signal);
  }

  /**
   * One turn of a variant column (see variant-sets/run-turn.ts): over the session's branch as it is now, with
   * the column's settings and earlier turns; recorded as a call carrying its link, the facts untouched.
   */
  async runVariantTurn(
    link: VariantLink,
    earlier: readonly ColumnTurn[],
    signal: AbortSignal,
    onEvent?: (event: AssistantMessageEvent) => void,
    at = Date.now(),
  ): Promise<{ call: CallRecord; reply: AssistantMessage }> {
    const { runColumnTurn } = await import("./variant-sets/run-turn.ts");
    const host = {
      ...this.#callHost,
      router: this.#deps.router,
      modelOf: (ref: ModelRef) => this.modelOf(ref),
      mirrorSpeed: () => this.#preferences.mirrorSpeed,
      base: () => this.#transcript.context(),
      leafId: () => this.leafId,
      toolsNamed: (names: readonly string[]) => this.#agent.toolsNamed(names),
    };
    return runColumnTurn(host, link, earlier, signal, onEvent, at);
  }

  /**
   * "Use this variant": a new branch from the leaf the variants compare over, with the column's turns as
   * its facts, and the column's settings as the session's (see variant-sets/use-variant.ts). Resolves with
   * what could not be done, or undefined.
   */
  async useVariant(
    baseLeafId: string | null,
    setup: ColumnSetup,
    turns: readonly ColumnTurn[],
  ): Promise<string | undefined> {
    const { useVariant } = await import("./variant-sets/use-variant.ts");
    return useVariant(
      {
        transcript: this.#transcript,
        runs: this.#runs,
        settings: this.#settings,
        catalog: this.#deps.catalog,
        busy: () => this.running || this.runningElsewhere,
        readOnly: () => this.live,
        toolsNamed: (names) => this.#agent.toolsNamed(names),
      },
      baseLeafId,
      setup,
      turns,
    );
  }

  /**
   * Replay the branch the session is on from the fact at `fromIndex`, with these changes, on a new branch
   * (see RunController.replay); resolves with why it could not start, or undefined once it is over.
   */
  async replay(fromIndex: number, changes: ReplayChanges): Promise<string | undefined> {
    if (this.running) return "A run is in progress: replay once it is over.";
    const { prepareReplay } = await import("./replay/replay-start.ts");
    const run = prepareReplay(
      {
        facts: this.facts,
        factIds: this.#transcript.projection.factIds,
        leafId: this.leafId,
        settings: this.settings,
      },
      fromIndex,
      changes,
    );
    if (typeof run === "string") return run;
    this.#replay = run;
    const started = await this.#runs.replay(run);
    if (!started) run.finished("failed", "The replay could not start.");
    return undefined;
  }

  /** The replay made last in this tab: while it runs, what it waits on; then how it ended. */
  get currentReplay(): ReplayRun | undefined {
    return this.#replay;
  }

  /** The session tree's path projected as pi does: facts, context, what became of each fact. */
  get projection(): SessionProjection {
    return this.#transcript.projection;
  }
  /** Every entry of the tree (all branches, in order of creation): what exports write, the anatomy reads. */
  get entries(): readonly SessionEntry[] {
    return this.#transcript.entries;
  }
  get leafId(): string | null {
    return this.#transcript.leafId;
  }
  get settings(): SessionSettings {
    return this.#settings.current;
  }
  get queues(): MessageQueues {
    return this.#agent.queues;
  }
  /** The model call held before it is sent, when the page pauses before each call. */
  get callGate(): CallGate {
    return this.#agent.gate;
  }
  /** The assistant message streaming right now, updated per frame. */
  get streaming(): AssistantMessage | undefined {
    return this.#runs.streaming;
  }
  get running(): boolean {
    return this.#runs.running;
  }
  /**
   * Why this session is read-only here, while a live pi coding agent writes its facts; undefined for an
   * ordinary session (a live one becomes one when pi exits).
   */
  get live(): string | undefined {
    return this.#deps.live?.(this.id);
  }
  /** Shown from an exported HTML file: read-only (see `live`), and nothing here makes a call. */
  get exported(): boolean {
    return this.#deps.exported === true;
  }
  /** Another tab is running this session; this one shows its writes but does not start its own. */
  get runningElsewhere(): boolean {
    return this.#replica.runningElsewhere;
  }
  get lastRequest(): LastRequest | undefined {
    return this.#agent.lastRequest;
  }
  get storage(): WriterStatus {
    return this.#storage;
  }
  get systemPrompt(): string {
    const first = this.facts[0];
    if (first?.role !== "system") return "";
    return contentText(first.content, "");
  }
  /** Entries of this session that are not stored yet (they are kept and retried). */
  get unsaved(): boolean {
    return this.#writer.pending;
  }
  /** Position among the facts of the entry with this id; -1 when it is not on the current path. */
  factIndexOf(entryId: string): number {
    return this.#transcript.indexOfEntry(entryId);
  }
  /** Tool calls waiting for a person to type their result ("ask me" tools). */
  get toolAnswers(): ToolAnswers | undefined {
    return this.#agent.answers;
  }
  isWaitingFor(toolCallId: string | undefined): boolean {
    return this.#agent.isWaitingFor(toolCallId);
  }

  // --- actions (each delegates to the part that owns it) --------------------------------------------

  /** Send a prompt; resolves false when it could not be taken (another tab runs the session). */
  send(text: string): Promise<boolean> {
    return this.#delivery.send(text);
  }
  steer(text: string): Promise<boolean> {
    return this.#delivery.steer(text);
  }
  followUp(text: string): Promise<boolean> {
    return this.#delivery.followUp(text);
  }
  retry(): Promise<void> {
    return this.#runs.retry();
  }
  /** What the next call would send if `prompt` were sent now, and its provider's payload; nothing is sent. */
  previewNextCall(prompt?: string): Promise<NextCallPreview> {
    return this.#agent.previewNext(prompt);
  }
  stop(): void {
    this.#runs.stop();
  }
  inject(message: AgentMessage, delivery: Delivery): Promise<void> {
    return this.#delivery.inject(message, delivery);
  }
  recordBash(message: AgentMessage): Promise<void> {
    return this.#delivery.recordBash(message);
  }
  decide(factIndex: number, status: ApprovalDecision, reason?: string): Promise<void> {
    return this.#runs.decide(factIndex, status, reason);
  }
  removeQueued(queue: RunQueue | "nextTurn", index: number): void {
    this.#delivery.removeQueued(queue, index);
  }
  clearQueues(): void {
    this.#delivery.clearQueues();
  }
  setSystemPrompt(prompt: string): Promise<void> {
    return this.#runs.setSystemPrompt(prompt);
  }
  setPolicy(role: PolicyRole, visibility: Visibility): Promise<void> {
    return this.#settings.setPolicy(role, visibility);
  }
  setApplyCompaction(apply: boolean): Promise<void> {
    return this.#settings.setApplyCompaction(apply);
  }
  setToolApproval(toolName: string, required: boolean): Promise<void> {
    return this.#settings.setToolApproval(toolName, required);
  }
  /** The session's tools from the next run on. */
  setTools(tools: readonly ToolDefinition[]): Promise<void> {
    return this.#settings.setTools(tools);
  }
  setModel(info: ModelInfo): Promise<void> {
    return this.#settings.setModel(info);
  }
  setThinkingLevel(level: ThinkingLevel): Promise<void> {
    return this.#settings.setThinkingLevel(level);
  }

  setSampling(sampling: Sampling): Promise<void> {
    return this.#settings.setSampling(sampling);
  }

  setQueueMode(queue: keyof QueueModes, mode: QueueMode): Promise<void> {
    return this.#settings.setQueueMode(queue, mode).then(() => this.#agent.applyQueueModes());
  }

  // --- storage and other tabs --------------------------------------------------------------------

  /** Write whatever is pending now (the "Retry saving" action). */
  saveNow(): Promise<void> {
    return this.#writer.flush();
  }

  /** Save the streaming reply before the page goes away. */
  saveStreamingNow(): void {
    this.#runs.saveStreamingNow();
  }

  /** Another tab wrote to this session (its new metadata is announced): read what it wrote. */
  applyRemoteWrite(meta?: SessionMeta): Promise<void> {
    return this.#replica.applyRemoteWrite(meta);
  }

  /** Another tab changed this session's settings or title. */
  adoptMeta(meta: SessionMeta): void {
    this.#replica.adoptMeta(meta);
  }

  setRunningElsewhere(running: boolean): void {
    this.#replica.setRunningElsewhere(running);
  }

  /** Stop a run in progress and wait until its last fact is handled and a write attempted. */
  settle(): Promise<void> {
    return this.#runs.settle();
  }

  /**
   * Leave the session. A run in progress is stopped, and its last events are still handled, so the
   * partial reply is stored (as aborted) before the writer stops.
   */
  async close({ discard = false } = {}): Promise<void> {
    this.#replica.close();
    try {
      await this.#runs.close();
      if (!discard) await this.#writer.flush();
    } finally {
      // What could not be stored stays in memory and keeps being retried while the page lives,
      // unless the session was deleted.
      if (discard || !this.#writer.pending) {
        this.#writer.close();
        this.#events.clear();
      }
      this.#deps.notices.clear({ keyPrefix: `run:${this.id}` });
    }
  }

  // --- internals -----------------------------------------------------------------------------------

  #metaAdopted(meta: SessionMeta, previous: SessionMeta): void {
    this.#settings.adopt(meta.settings);
    // Another tab recorded calls: a calls view that is open reads them.
    if ((meta.nextCallSeq ?? 0) > (previous.nextCallSeq ?? 0) && this.calls.state === "ready")
      void this.calls.load({ again: true });
  }

  #storageStatus(status: WriterStatus): void {
    const previous = this.#storage;
    this.#storage = status;
    if (previous.unsaved !== status.unsaved || previous.error !== status.error)
      this.#deps.onStorageStatus?.(this, status);
  }
}

/** The session runtime, loading while storage is read (see session-runtime.ts); one module for all sessions. */
function loadRuntime(): Promise<SessionRuntime> {
  const loading = import("./session-runtime.ts");
  // Awaited by the caller once storage has answered; an early failure must not be reported as unhandled.
  loading.catch(() => undefined);
  return loading;
}

/** From this many entries on, a session is indexed, and its passes over its facts run, in tasks of their own. */
const SEPARATE_RENDER_FROM = 5_000;

function separatesRender(entries: number): boolean {
  return entries >= SEPARATE_RENDER_FROM && typeof MessageChannel === "function";
}

/**
 * Stored entries indexed for the session's transcript: a large session's a slice at a time, each slice a
 * task of its own (in the task that made the session they were about 70 ms of it at 100,000 entries).
 */
function indexStored(
  runtime: SessionRuntime,
  records: readonly EntryRecord[],
  leafId: string | null,
): Promise<TranscriptIndex> {
  return runtime.indexInSlices(records, leafId, separatesRender(records.length) ? yieldToPage : undefined);
}
