import { Agent, type AgentEvent, type AgentMessage, type ThinkingLevel } from "@earendil-works/pi-agent-core";
import {
  contentText,
  createInitialSystemMessage,
  toToolDeclaration,
  type AssistantMessage,
} from "@earendil-works/pi-ai";
import type { ModelInfo } from "../../shared/api-types.ts";
import { convertToLlm } from "../messages/convert.ts";
import { createUserMessage, INJECTED_API } from "../messages/factories.ts";
import type { Visibility } from "../messages/policies.ts";
import type { PolicyRole } from "../messages/types.ts";
import type { ModelCatalog } from "../models/model-catalog.svelte.ts";
import { modelFromInfo, modelFromRef, thinkingLevelFor } from "../models/model-ref.ts";
import { projectModelView } from "../model-view/project.ts";
import { sumUsage } from "../models/usage.ts";
import { transformContext } from "../model-view/transform.ts";
import {
  defaultSettings,
  SCHEMA_VERSION,
  type ForkOrigin,
  type MessageRecord,
  type SessionMeta,
  type SessionSettings,
} from "../storage/records.ts";
import { NEW_SESSION_TITLE, type SessionStore } from "../storage/session-store.ts";
import { SessionWriter, type WriterStatus } from "../storage/session-writer.ts";
import { TabLock, type SessionLocks, type TabChannel } from "../storage/tab-sync.ts";
import { decided, type ApprovalDecision } from "./approvals.ts";
import { StreamingReply } from "./streaming-reply.svelte.ts";
import { ToolApprovals } from "./tool-approvals.svelte.ts";
import { MessageQueues, type RunQueue } from "./message-queues.svelte.ts";
import { createProxyStreamFn, type RecordedRequest, type StreamRouter } from "./proxy-stream.ts";
import { DEMO_TOOLS } from "./tools/demo-tools.ts";

/** What every session needs from the app around it. */
export interface SessionDeps {
  store: SessionStore;
  catalog: ModelCatalog;
  router: StreamRouter;
  channel: TabChannel;
  locks: SessionLocks;
  /** This page's id: marks the reply it streams, so other tabs know whose it is. */
  tabId: string;
  /** Called after records of a session were stored (the session list shows counts and titles). */
  onStored?: (sessionId: string) => void;
}

const DEFAULT_SYSTEM_PROMPT =
  "You are a helpful assistant inside pi playground. Answer briefly. Use the tools when they help: current_time for the date and time, calculate for arithmetic, save_note to keep a note for the user.";

/** What storage holds of a session when it is opened or created. */
interface StoredState {
  seqs: number[];
  created: boolean;
}

/** What a new session starts from; everything is optional. */
export interface SessionInit {
  title?: string;
  /** The complete facts, leading system message included; a fresh system message when absent. */
  facts?: AgentMessage[];
  settings?: SessionSettings;
  systemPrompt?: string;
  forkedFrom?: ForkOrigin;
}

/** How an injected message is delivered, in the terms of pi's `sendCustomMessage`. */
export type Delivery = "append" | "appendAndRun" | "steer" | "followUp" | "nextTurn";

export interface LastRequest {
  request: RecordedRequest;
  /** How many facts existed when it was sent: later ones have not been seen by the model yet. */
  factCount: number;
}

/** The leading system message of a new session: the prompt and the declarations of the playground's tools. */
export function createSystemFact(prompt = DEFAULT_SYSTEM_PROMPT): AgentMessage {
  return createInitialSystemMessage(prompt, DEMO_TOOLS.map(toToolDeclaration)) as AgentMessage;
}

const RUNNING_ELSEWHERE =
  "This session is running in another tab. Wait for it to finish, or open another session.";

const INTERRUPTED =
  "Interrupted: the page was closed or reloaded while this reply was streaming. The text received until then is kept.";

/**
 * One open session: its facts, its settings, and the pi `Agent` that extends them. The facts are the
 * Agent's transcript; this class keeps a reactive snapshot of it, persists every fact the moment it is
 * final, and derives the model view from the same pipeline the Agent runs before each request.
 */
export class ChatSession {
  readonly id: string;
  readonly queues: MessageQueues;
  readonly #deps: SessionDeps;
  readonly #agent: Agent;
  readonly #writer: SessionWriter;
  readonly #unsubscribe: () => void;

  #meta = $state.raw<SessionMeta>() as SessionMeta;
  #facts = $state.raw<AgentMessage[]>([]);
  #settings = $state.raw<SessionSettings>(defaultSettings());
  #running = $state(false);
  #runningElsewhere = $state(false);
  #lastRequest = $state.raw<LastRequest | undefined>(undefined);
  #storage = $state.raw<WriterStatus>({ unsaved: 0, error: undefined });
  #warnings = $state.raw<string[]>([]);
  #notice = $state<string | undefined>(undefined);

  /**
   * How many leading facts the model has already seen: those in the last request from this tab, and
   * everything up to the latest model reply (produced from them), which also holds after a reload.
   */
  readonly seenCount = $derived.by(() => {
    let throughReply = 0;
    for (let index = this.#facts.length - 1; index >= 0; index--) {
      const fact = this.#facts[index];
      if (fact?.role === "assistant" && fact.api !== INJECTED_API) {
        throughReply = index + 1;
        break;
      }
    }
    return Math.max(throughReply, this.#lastRequest?.factCount ?? 0);
  });

  /** What the model replies of this session used and cost, from their usage records. */
  readonly usage = $derived(sumUsage(this.#facts));

  /** Exactly what the next request will carry (before the new prompt is appended), with provenance. */
  readonly modelView = $derived(projectModelView(this.#facts, this.#settings.context));

  /** Bash executions recorded during a run; appended when it ends, as pi's coding agent does. */
  #heldBash: AgentMessage[] = [];
  /** Gated tool calls waiting for a person, by tool call id. */
  readonly #approvals: ToolApprovals;

  /** The running loop's own transcript copy, so facts added mid-run reach the next request too. */
  #loopMessages: AgentMessage[] | undefined;
  readonly #reply: StreamingReply;
  #closed = false;
  readonly #lock: TabLock;
  /** Remote writes announced while a run owned the transcript; read when it ends. */
  #remoteWhileRunning = false;
  #remoteReplaced: number[] = [];
  #remoteChain: Promise<void> = Promise.resolve();
  #runPromise: Promise<void> = Promise.resolve();
  /** A reply was stored as final (or restored as interrupted): drop its in-flight copy once it is stored. */
  #inflightToClear = false;
  readonly #lockWatch = new AbortController();

  private constructor(deps: SessionDeps, meta: SessionMeta, facts: AgentMessage[], stored: StoredState) {
    this.#deps = deps;
    this.id = meta.id;
    this.#meta = meta;
    this.#settings = meta.settings;
    this.#facts = facts;
    this.#lock = new TabLock(deps.locks, meta.id);
    this.#reply = new StreamingReply({
      save: (message) => deps.store.saveInflight(meta.id, message, deps.tabId),
    });
    const info = deps.catalog.find(meta.settings.model);
    this.#approvals = new ToolApprovals({
      requiresApproval: (toolName) => this.#settings.toolApprovals[toolName] === true,
      record: (request, loopMessages) => {
        loopMessages.push(request);
        this.#agent.state.messages.push(request);
        this.#commit();
      },
      settle: (request, outcome) => {
        const index = this.#agent.state.messages.indexOf(request);
        if (index !== -1) this.#replaceFact(index, outcome);
      },
    });
    this.#agent = new Agent({
      initialState: {
        model: info ? modelFromInfo(info) : modelFromRef(meta.settings.model),
        thinkingLevel: meta.settings.thinkingLevel,
        tools: [...DEMO_TOOLS],
        messages: facts,
      },
      convertToLlm: (messages) => convertToLlm(messages, this.#settings.context.policies),
      transformContext: async (messages) =>
        transformContext(messages, this.#settings.context.applyCompaction),
      streamFn: createProxyStreamFn({
        router: deps.router,
        onRequest: (request) => {
          this.#lastRequest = { request, factCount: this.#agent.state.messages.length };
        },
      }),
      beforeToolCall: this.#approvals.gate,
      prepareRequest: ({ context }) => {
        this.#loopMessages = context.messages;
      },
      sessionId: meta.id,
    });
    this.queues = new MessageQueues(this.#agent);
    this.#writer = new SessionWriter(deps.store, meta.id, stored, {
      facts: () => this.#facts,
      onStatus: (status) => {
        this.#storage = status;
      },
      onWritten: ({ appended, replaced }) => {
        deps.channel.post({ type: "written", sessionId: this.id, appended, replaced });
        deps.onStored?.(this.id);
        // The final (or interrupted) reply is stored now; its in-flight copy can go.
        if (this.#inflightToClear && !this.#writer.pending && !this.#reply.active) {
          this.#inflightToClear = false;
          void deps.store.clearInflight(this.id).catch(() => undefined);
        }
      },
      exclusive: async (write) => (await this.#lock.run(write)).acquired,
      meta: () => ({ ...this.#meta, settings: this.#settings }),
    });
    this.#unsubscribe = this.#agent.subscribe((event) => this.#onEvent(event));
  }

  /** Create and store a new session. Its first fact is the system message carrying prompt and tools. */
  static async create(deps: SessionDeps, init: SessionInit = {}): Promise<ChatSession> {
    const now = Date.now();
    const settings = init.settings ?? defaultSettings();
    const facts = init.facts ?? [createSystemFact(init.systemPrompt)];
    const meta: SessionMeta = {
      schema: SCHEMA_VERSION,
      id: crypto.randomUUID(),
      title: init.title ?? NEW_SESSION_TITLE,
      titleIsCustom: init.title !== undefined,
      createdAt: now,
      updatedAt: now,
      messageCount: facts.length,
      nextSeq: facts.length,
      settings,
      ...(init.forkedFrom ? { forkedFrom: init.forkedFrom } : {}),
    };
    let stored: StoredState = { seqs: [], created: false };
    try {
      stored = { seqs: await deps.store.createSession(meta, facts), created: true };
    } catch {
      // The writer creates the record on its next attempt; its banner says what went wrong meanwhile.
    }
    const session = new ChatSession(deps, meta, facts, stored);
    if (!stored.created) session.#writer.schedule();
    deps.channel.post({ type: "sessions" });
    return session;
  }

  /** Open a stored session; a reply that was streaming when the page went away comes back as interrupted. */
  static async open(deps: SessionDeps, id: string): Promise<ChatSession | undefined> {
    const loaded = await deps.store.loadSession(id);
    if (!loaded) return undefined;
    const session = new ChatSession(deps, loaded.meta, loaded.facts, { seqs: loaded.seqs, created: true });
    session.#warnings = loaded.warnings;
    if (await deps.locks.isHeld(id)) session.setRunningElsewhere(true);
    // Catching up under the lock restores a reply whose page went away while it streamed.
    else if (loaded.inflight) await session.#whileIdle(() => undefined);
    return session;
  }

  // --- state -------------------------------------------------------------------------------------

  get meta(): SessionMeta {
    return this.#meta;
  }
  get facts(): readonly AgentMessage[] {
    return this.#facts;
  }
  get settings(): SessionSettings {
    return this.#settings;
  }
  /** The assistant message streaming right now, updated per token. */
  get streaming(): AssistantMessage | undefined {
    return this.#reply.current;
  }
  get running(): boolean {
    return this.#running;
  }
  /** Another tab is running this session; this one shows its writes but does not start its own. */
  get runningElsewhere(): boolean {
    return this.#runningElsewhere;
  }
  get lastRequest(): LastRequest | undefined {
    return this.#lastRequest;
  }
  get storage(): WriterStatus {
    return this.#storage;
  }
  get warnings(): readonly string[] {
    return this.#warnings;
  }
  /** A one-off message for the person, e.g. why an action could not be taken. */
  get notice(): string | undefined {
    return this.#notice;
  }
  get systemPrompt(): string {
    const first = this.#facts[0];
    if (first?.role !== "system") return "";
    return contentText(first.content, "");
  }
  get nextTurn(): readonly AgentMessage[] {
    return this.#settings.nextTurn;
  }
  /** Tool calls waiting for a decision, by id. */
  isWaitingFor(toolCallId: string | undefined): boolean {
    return this.#approvals.isWaiting(toolCallId);
  }

  dismissNotice(): void {
    this.#notice = undefined;
  }

  dismissWarnings(): void {
    this.#warnings = [];
  }

  // --- prompting -----------------------------------------------------------------------------------

  /** Send a prompt, with any messages held for the next turn. */
  async send(text: string): Promise<void> {
    const prompt = text.trim();
    if (!prompt) return;
    if (this.#running) {
      // Prompting during a run is queued as steering rather than refused.
      this.steer(prompt);
      return;
    }
    const held = this.#settings.nextTurn;
    await this.#run(async () => {
      if (held.length > 0) await this.#saveSettings({ ...this.#settings, nextTurn: [] });
      await this.#agent.prompt([createUserMessage(prompt), ...held]);
    });
  }

  steer(text: string): void {
    if (!this.#running) {
      void this.send(text);
      return;
    }
    this.queues.steer(createUserMessage(text));
  }

  followUp(text: string): void {
    if (!this.#running) {
      void this.send(text);
      return;
    }
    this.queues.followUp(createUserMessage(text));
  }

  removeQueued(queue: RunQueue | "nextTurn", index: number): void {
    if (queue === "nextTurn") {
      void this.#saveSettings({
        ...this.#settings,
        nextTurn: this.#settings.nextTurn.filter((_, position) => position !== index),
      });
      return;
    }
    this.queues.remove(queue, index);
  }

  clearQueues(): void {
    this.queues.clear();
    if (this.#settings.nextTurn.length > 0) void this.#saveSettings({ ...this.#settings, nextTurn: [] });
  }

  /** Run the model again from the current facts, e.g. after a provider error. */
  async retry(): Promise<void> {
    if (this.#running) return;
    await this.#run(() => this.#agent.prompt([]));
  }

  /** Abort the run; the partial reply is kept and marked aborted. */
  stop(): void {
    this.#agent.abort();
  }

  /**
   * Deliver a hand-made message. Idle: append it (no model call) or append it and run a turn. During a
   * run: steer or follow up through the Agent's queues. Next turn: hold it for the next prompt.
   */
  async inject(message: AgentMessage, delivery: Delivery): Promise<void> {
    switch (delivery) {
      case "append":
        if (this.#running) {
          this.#notice = "A run is active: inject with Steer or Follow-up, or wait for it to finish.";
          return;
        }
        await this.#whileIdle(() => this.#append([message]));
        return;
      case "appendAndRun":
        if (this.#running) {
          this.queues.steer(message);
          return;
        }
        await this.#run(() => this.#agent.prompt(message));
        return;
      case "steer":
      case "followUp":
        if (!this.#running) {
          await this.inject(message, "appendAndRun");
          return;
        }
        if (delivery === "steer") this.queues.steer(message);
        else this.queues.followUp(message);
        return;
      case "nextTurn":
        await this.#saveSettings({ ...this.#settings, nextTurn: [...this.#settings.nextTurn, message] });
        return;
    }
  }

  /** Record a bash execution typed as `!command` (or `!!command`). During a run it waits for the run to end. */
  async recordBash(message: AgentMessage): Promise<void> {
    if (this.#running) {
      this.#heldBash.push(message);
      return;
    }
    await this.#whileIdle(() => this.#append([message]));
  }

  // --- approvals -----------------------------------------------------------------------------------

  /** Decide an approval request. A gated tool call waiting on it continues (or is blocked) at once. */
  async decide(factIndex: number, status: ApprovalDecision, reason?: string): Promise<void> {
    const fact = this.#facts[factIndex];
    if (fact?.role !== "approval_request" || fact.status !== "pending") return;
    if (this.#approvals.resolve(fact.toolCallId, reason ? { status, reason } : { status })) return;
    if (this.#runningElsewhere) {
      this.#notice = "This session is running in another tab; decide there.";
      return;
    }
    const apply = () => {
      const index = this.#facts.indexOf(fact);
      if (index !== -1) this.#replaceFact(index, decided(fact, status, reason));
    };
    if (this.#running) apply();
    else await this.#whileIdle(apply);
  }

  // --- settings ------------------------------------------------------------------------------------

  async setPolicy(role: PolicyRole, visibility: Visibility): Promise<void> {
    const context = {
      ...this.#settings.context,
      policies: { ...this.#settings.context.policies, [role]: visibility },
    };
    await this.#saveSettings({ ...this.#settings, context });
  }

  async setApplyCompaction(apply: boolean): Promise<void> {
    await this.#saveSettings({
      ...this.#settings,
      context: { ...this.#settings.context, applyCompaction: apply },
    });
  }

  async setToolApproval(toolName: string, required: boolean): Promise<void> {
    await this.#saveSettings({
      ...this.#settings,
      toolApprovals: { ...this.#settings.toolApprovals, [toolName]: required },
    });
  }

  async setModel(info: ModelInfo): Promise<void> {
    const thinkingLevel = thinkingLevelFor(info, this.#settings.thinkingLevel);
    this.#agent.state.model = modelFromInfo(info);
    this.#agent.state.thinkingLevel = thinkingLevel;
    await this.#saveSettings({
      ...this.#settings,
      model: { provider: info.provider, id: info.id },
      thinkingLevel,
    });
  }

  async setThinkingLevel(level: ThinkingLevel): Promise<void> {
    this.#agent.state.thinkingLevel = level;
    await this.#saveSettings({ ...this.#settings, thinkingLevel: level });
  }

  /** The catalog loaded after the session opened: give the Agent the full model record. */
  refreshModel(): void {
    const info = this.#deps.catalog.find(this.#settings.model);
    if (info) this.#agent.state.model = modelFromInfo(info);
  }

  /**
   * Change the system prompt. pi keeps it in the transcript as the leading system message, so this
   * replaces that fact; the model reads the new prompt on its next request.
   */
  async setSystemPrompt(prompt: string): Promise<void> {
    if (this.#running) {
      this.#notice = "The system prompt can be changed when no run is active.";
      return;
    }
    await this.#whileIdle(() => {
      const first = this.#facts[0];
      if (first?.role === "system") this.#replaceFact(0, { ...first, content: prompt });
      else this.#notice = "This session does not start with a system message, so it has no prompt to edit.";
    });
  }

  // --- storage and other tabs ----------------------------------------------------------------------

  /** Write whatever is pending now (the "Retry saving" action). */
  saveNow(): Promise<void> {
    return this.#writer.flush();
  }

  /** Another tab wrote to this session: read what it wrote. */
  applyRemoteWrite(appended: readonly number[], replaced: readonly number[]): Promise<void> {
    // One at a time: each reads positions that the previous one may have moved.
    this.#remoteChain = this.#remoteChain
      .then(() => this.#applyRemoteWrite(appended, replaced))
      .catch((error: unknown) => {
        this.#warnings = [
          ...this.#warnings,
          `A change made in another tab could not be read: ${(error as Error).message}`,
        ];
      });
    return this.#remoteChain;
  }

  async #applyRemoteWrite(appended: readonly number[], replaced: readonly number[]): Promise<void> {
    if (this.#closed) return;
    // A running turn owns the transcript; what others wrote is read when it ends.
    if (this.#running) {
      this.#remoteWhileRunning = true;
      this.#remoteReplaced.push(...replaced);
      return;
    }
    await this.#readMissing(appended, replaced);
  }

  /** Read the stored facts this tab does not know yet, and the new versions of those another tab replaced. */
  async #readMissing(seqs: readonly number[], replaced: readonly number[]): Promise<void> {
    const missing = seqs.filter((seq) => !this.#writer.hasSeq(seq));
    if (missing.length > 0) {
      const { records, warnings } = await this.#deps.store.loadMessagesSince(
        this.id,
        Math.min(...missing) - 1,
      );
      this.#merge(records);
      if (warnings.length > 0) this.#warnings = [...this.#warnings, ...warnings];
    }
    // A fact replaced twice while a run held the transcript is read once.
    for (const [position, seq] of replaced.entries())
      if (replaced.indexOf(seq) === position) await this.#rereadStored(seq);
  }

  /** Take another tab's new version of a stored fact. */
  async #rereadStored(seq: number): Promise<void> {
    if (!this.#writer.hasSeq(seq)) return;
    const record = await this.#deps.store.readMessage(this.id, seq);
    const index = this.#writer.indexOfSeq(seq);
    if (!record || index === -1) return;
    const facts = this.#facts.slice();
    facts[index] = record.message;
    this.#writer.replaceStored(index, record.message);
    this.#setFacts(facts);
  }

  /** Another tab changed this session's settings or title. */
  async applyRemoteMeta(): Promise<void> {
    const meta = await this.#deps.store.getMeta(this.id);
    if (!meta || this.#closed) return;
    this.#meta = meta;
    this.#settings = meta.settings;
    this.refreshModel();
    this.#agent.state.thinkingLevel = meta.settings.thinkingLevel;
  }

  setRunningElsewhere(running: boolean): void {
    this.#runningElsewhere = running;
    if (running) this.#watchOtherTab();
  }

  /**
   * The other tab may be closed mid-run without saying so; its lock is released then, so wait for the
   * lock to come free rather than for a message that may never arrive.
   */
  #watchOtherTab(): void {
    void this.#deps.locks
      .whenFree(this.id, this.#lockWatch.signal)
      .then((free) => {
        if (free && !this.#closed) this.#runningElsewhere = false;
      })
      .catch(() => {
        // Without a way to ask, assume the other tab is done rather than block this one for good.
        if (!this.#closed) this.#runningElsewhere = false;
      });
  }

  /** Title and settings changed through the sessions list. */
  adoptMeta(meta: SessionMeta): void {
    this.#meta = meta;
  }

  /**
   * Leave the session. A run in progress is stopped, and its last events are still handled, so the
   * partial reply is stored (as aborted) before the writer stops.
   */
  close({ discard = false } = {}): Promise<void> {
    this.#closed = true;
    this.#lockWatch.abort();
    this.#agent.abort();
    return this.#runPromise
      .then(() => this.#agent.waitForIdle())
      .then(() => {
        this.#unsubscribe();
        return discard ? undefined : this.#writer.flush();
      })
      .finally(() => {
        // What could not be stored stays in memory and keeps being retried while the page lives,
        // unless the session was deleted.
        if (discard || !this.#writer.pending) this.#writer.close();
      });
  }

  /** Stop a run in progress and wait until its last fact is handled and a write attempted. */
  async settle(): Promise<void> {
    this.#agent.abort();
    await this.#runPromise;
    await this.#writer.flush();
  }

  /** Facts of this session that are not stored yet (they are kept and retried). */
  get unsaved(): boolean {
    return this.#writer.pending;
  }

  // --- internals -----------------------------------------------------------------------------------

  async #run(start: () => Promise<void>): Promise<void> {
    if (this.#running) return;
    if (this.#runningElsewhere) {
      this.#notice = RUNNING_ELSEWHERE;
      return;
    }
    this.#running = true;
    this.#notice = undefined;
    const run = this.#runLocked(start);
    this.#runPromise = run;
    await run;
  }

  async #runLocked(start: () => Promise<void>): Promise<void> {
    try {
      const outcome = await this.#lock.run(async () => {
        this.#deps.channel.post({ type: "running", sessionId: this.id, running: true });
        try {
          await this.#catchUp();
          if (!this.#closed) await start();
        } finally {
          // Still under the lock: bash recorded during the run lands now, then what others wrote meanwhile.
          this.#running = false;
          this.#appendHeldBash();
          if (this.#remoteWhileRunning) {
            this.#remoteWhileRunning = false;
            await this.#catchUp();
          }
          await this.#writer.flush();
          this.#holdWhileUnsaved();
          this.#deps.channel.post({ type: "running", sessionId: this.id, running: false });
        }
      });
      if (!outcome.acquired) this.#busyElsewhere(RUNNING_ELSEWHERE);
    } catch (error) {
      this.#notice = `The run could not start: ${(error as Error).message}`;
    } finally {
      this.#running = false;
      this.#reply.stop();
      this.#loopMessages = undefined;
    }
  }

  /** Another tab holds the session's lock: show it as running there, and say why nothing happened. */
  #busyElsewhere(notice: string): void {
    this.setRunningElsewhere(true);
    this.#notice = notice;
  }

  #appendHeldBash(): void {
    if (this.#heldBash.length === 0) return;
    const held = this.#heldBash;
    this.#heldBash = [];
    this.#append(held);
  }

  /**
   * Facts only this tab has (their write failed) must not be overtaken by another tab's: keep the
   * session's lock until they are stored, so other tabs wait instead of forking the transcript.
   */
  #holdWhileUnsaved(): void {
    if (this.#writer.pending) void this.#lock.run(() => this.#writer.whenSaved());
  }

  /** Idle changes take the session's lock too, so two tabs never interleave writes into one session. */
  async #whileIdle(change: () => void | Promise<void>): Promise<void> {
    try {
      const outcome = await this.#lock.run(async () => {
        await this.#catchUp();
        await change();
        await this.#writer.flush();
        this.#holdWhileUnsaved();
      });
      if (!outcome.acquired)
        this.#busyElsewhere("This session is busy in another tab; try again when it is done.");
    } catch (error) {
      this.#notice = `That change could not be made: ${(error as Error).message}`;
    }
  }

  /** Before writing, read anything another tab stored since we last looked. */
  async #catchUp(): Promise<void> {
    if (this.#writer.savedCount === 0) return;
    // Every stored sequence number, wherever a missing one falls (keys only: cheap).
    const replaced = this.#remoteReplaced;
    this.#remoteReplaced = [];
    await this.#readMissing(await this.#deps.store.listSeqs(this.id), replaced);
    // A reply still in flight from a tab that is gone (closed or crashed mid-run) comes back as
    // interrupted, before anything new. Ours is never restored: it is in our facts, final or not.
    const inflight = await this.#deps.store.readInflight(this.id);
    if (
      inflight &&
      !this.#inflightToClear &&
      inflight.tabId !== this.#deps.tabId &&
      !(inflight.tabId && (await this.#deps.locks.isTabAlive(inflight.tabId)))
    ) {
      this.#restoreInterrupted(inflight.message);
    }
  }

  /** A reply whose page went away while it streamed: kept, marked aborted, with the reason. */
  #restoreInterrupted(message: AgentMessage): void {
    if (message.role !== "assistant") return;
    this.#inflightToClear = true;
    this.#append([{ ...message, stopReason: "aborted", errorMessage: INTERRUPTED }]);
  }

  /** Take in records another tab stored, in their place by sequence number. */
  #merge(records: readonly MessageRecord[]): void {
    const merged = this.#writer.merge(records);
    if (merged) this.#setFacts(merged);
  }

  #onEvent(event: AgentEvent): void {
    switch (event.type) {
      case "message_start":
        this.queues.delivered(event.message);
        if (event.message.role === "assistant") this.#reply.start(event.message);
        return;
      case "message_update":
        if (event.message.role === "assistant") {
          this.#reply.update(event.message);
        }
        return;
      case "message_end":
        if (event.message.role === "assistant") {
          this.#reply.stop();
          this.#inflightToClear = true;
        }
        this.#commit();
        return;
      default:
        return;
    }
  }

  /** Save the streaming reply right away (the page is being hidden or unloaded). */
  saveStreamingNow(): void {
    this.#reply.saveNow();
  }

  #append(messages: AgentMessage[]): void {
    this.#agent.state.messages = [...this.#agent.state.messages, ...messages];
    this.#commit();
  }

  /** Take a new snapshot of the Agent's transcript and store what is new. */
  #commit(): void {
    this.#facts = this.#agent.state.messages.slice();
    this.#writer.schedule();
  }

  // The Agent copies the array it is given, so the one passed here stays ours alone: no second copy.
  #setFacts(facts: AgentMessage[]): void {
    this.#agent.state.messages = facts;
    this.#facts = facts;
  }

  #replaceFact(index: number, next: AgentMessage): void {
    const previous = this.#agent.state.messages[index];
    const messages = this.#agent.state.messages.slice();
    messages[index] = next;
    this.#agent.state.messages = messages;
    if (previous && this.#loopMessages) {
      const loopIndex = this.#loopMessages.indexOf(previous);
      if (loopIndex !== -1) this.#loopMessages[loopIndex] = next;
    }
    this.#facts = messages;
    this.#writer.schedule();
  }

  async #saveSettings(settings: SessionSettings): Promise<void> {
    this.#settings = settings;
    try {
      this.#meta = await this.#deps.store.updateMeta(this.id, { settings });
      this.#deps.channel.post({ type: "meta", sessionId: this.id });
    } catch (error) {
      this.#notice = `The setting applies now but was not saved: ${(error as Error).message}`;
    }
  }
}
