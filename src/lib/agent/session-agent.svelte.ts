import type { Agent, AgentEvent } from "@earendil-works/pi-agent-core";
import type { Api, Message, Model, Tool } from "@earendil-works/pi-ai";
import type { PayloadResponse } from "../../shared/api-types.ts";
import { convertToLlm } from "../messages/convert.ts";
import { createUserMessage } from "../messages/factories.ts";
import type { ModelCatalog } from "../models/model-catalog.svelte.ts";
import { modelFromInfo, modelFromRef } from "../models/model-ref.ts";
import type { ModelView } from "../model-view/project.ts";
import { CallGate } from "./call-gate.svelte.ts";
import { convertForRequest } from "../model-view/request-messages.ts";
import { requestSources } from "./request-sources.ts";
import type { CallPreferences } from "./call-preferences.svelte.ts";
import { MessageQueues } from "./message-queues.svelte.ts";
import type { CallRecorder } from "./recording/call-recorder.ts";
import type { SessionSettingsState } from "./session-settings.svelte.ts";
import type { PreviewRequest, RecordedRequest, StreamRouter } from "./stream-route.ts";
import type { ToolAnswers } from "./tool-answers.svelte.ts";
import { ToolApprovals, type Decision } from "./tool-approvals.svelte.ts";
import { ToolCallStreak } from "./tool-call-streak.ts";
import type { Transcript } from "./transcript.svelte.ts";
import type { ReplayRun } from "./replay/replay-run.svelte.ts";
import { yieldToPage } from "./yield-to-page.ts";

export interface LastRequest {
  request: RecordedRequest;
  /** How many facts existed when it was sent: later ones have not been seen by the model yet. */
  factCount: number;
}

/** What would be sent next, and what its provider would receive of it. */
export interface NextCallPreview {
  request: PreviewRequest;
  response: PayloadResponse;
}

export interface AgentHost {
  sessionId: string;
  catalog: ModelCatalog;
  router: StreamRouter;
  transcript: Transcript;
  settings: SessionSettingsState;
  recorder: CallRecorder;
  /** The session's model view now (kept up to date incrementally by the session). */
  modelView: () => ModelView;
  /** The page's choices for model calls: pause before each, and the offline models' pace. */
  preferences: CallPreferences;
}

const NO_PREVIEW: PayloadResponse = {
  payload: { kept: "none", bytes: 0, reason: "this connection cannot build a provider's payload" },
};

/**
 * The session's pi `Agent`, wired to the session: its chunk loads as the session opens, every request is
 * built from the transcript with the session's model and thinking level (held at the call gate first when
 * the page pauses before calls), each request is recorded, gated tool calls wait for an approval, and the
 * steering and follow-up queues are mirrored for the view. It runs nothing itself: the run controller does.
 * The transcript is the Agent's source: it hands the context to each request through `prepareRequest`, so
 * facts recorded mid-run (an approval) reach the model.
 */
export class SessionAgent {
  readonly queues: MessageQueues;
  /** Where a call waits for the person when the page pauses before each model call. */
  readonly gate = new CallGate();
  /**
   * Tool calls whose result a person types ("ask me" tools): the run waits on each. Made with the Agent's
   * chunk, which runs the tools; until then no call can wait.
   */
  #answers = $state.raw<ToolAnswers | undefined>(undefined);
  readonly #host: AgentHost;
  /** pi's Agent, once its chunk has loaded (see agent-runtime.ts); every run waits for it. */
  #agent: Agent | undefined;
  /** The Agent's chunk once loaded: it builds the session's tools for each run. */
  #runtime: typeof import("./agent-runtime.ts") | undefined;
  readonly #ready: Promise<Agent>;
  readonly #approvals: ToolApprovals;
  #listener: (event: AgentEvent) => void | Promise<void> = () => undefined;
  #unsubscribe: () => void = () => undefined;
  #lastRequest = $state.raw<LastRequest | undefined>(undefined);
  #stopped = false;
  readonly #streak: ToolCallStreak;
  /** The replay the Agent runs now, if any: its requests are made with the replay's changes. */
  #replay: ReplayRun | undefined;

  constructor(host: AgentHost) {
    this.#host = host;
    const { transcript, settings } = host;
    this.#approvals = new ToolApprovals({
      requiresApproval: (toolName) => settings.current.toolApprovals[toolName] === true,
      record: (request) => void transcript.append([request]),
      settle: (request, outcome) => void transcript.replaceFact(request, outcome),
    });
    this.queues = new MessageQueues(() => this.#agent);
    this.#streak = new ToolCallStreak(() => host.preferences.toolCallsPerRun);
    this.#ready = import("./agent-runtime.ts").then((runtime) => {
      this.#runtime = runtime;
      this.#answers = new runtime.ToolAnswers();
      const agent = runtime.createSessionAgent({
        initialState: {
          model: this.model(),
          thinkingLevel: settings.current.thinkingLevel,
          tools: this.#tools(runtime),
        },
        // A run's request sends the transcript's context, which the session's model view has converted
        // already; a replay's is converted with its own policies.
        convertToLlm: (messages) => {
          const policies = settings.current.context.policies;
          if (this.#replay) return convertToLlm(messages, this.#replay.settings.policies);
          const view = host.modelView();
          return convertForRequest(messages, policies, {
            context: transcript.projection.context,
            policies,
            messages: view.messages,
          });
        },
        // No transformContext: the transcript's context is already the session projection (compaction
        // and context edits applied, as pi's session manager applies them).
        router: host.router,
        onRequest: (request) => {
          // What this request sends is cached now; the reply and what follows it, once idle.
          runtime.prepareRequestBodyWhenIdle(() => host.modelView().messages);
          this.#lastRequest = { request, factCount: transcript.facts.length };
          return host.recorder.begin(request, this.#sourcesOf(request.messages), transcript.leafId);
        },
        onAnswered: (callId) => host.recorder.answered(callId),
        mirrorSpeed: () => host.preferences.mirrorSpeed,
        sampling: () => this.#replay?.settings.sampling ?? settings.current.sampling,
        // A replay runs no tool unless a person chose to, which is their approval: nothing is gated then.
        beforeToolCall: (context, signal) =>
          this.#replay ? Promise.resolve(undefined) : this.#approvals.gate(context, signal),
        // pi's hook after each turn's tool results: a run that keeps calling tools ends at the limit.
        finishTurn: ({ toolResults }) =>
          this.#streak.afterTurn(toolResults.length) === "stop" ? { action: "end" } : undefined,
        // Every request is built from the transcript as it is now, with the session's current model and
        // thinking level: pi's hook for replacing the request's context instead of editing the loop's arrays.
        // It is also the last step before the stream function, so a paused call waits here.
        // A replay delivers the facts recorded before this call first, and makes the request with its changes.
        prepareRequest: async ({ context }, signal) => {
          // pi has just walked the whole context to declare tool changes (in the task this hook is called
          // from); building the request from the transcript goes in a task of its own (see RunController).
          await yieldToPage();
          const replay = this.#replay;
          if (replay) {
            const due = replay.beforeCall();
            if (due.length > 0) transcript.append(due);
          }
          if (host.preferences.pauseBeforeCalls) await this.#hold(signal);
          const messages = transcript.context();
          return {
            context: { ...context, messages: replay ? replay.view(messages) : messages },
            model: this.model(),
            thinkingLevel: this.#thinkingLevel(),
          };
        },
        sessionId: host.sessionId,
      });
      // A session closed while the chunk loaded never runs: nothing to bind.
      if (this.#stopped) return agent;
      // The session's messages serialized for the first request while the page is idle (request-body.ts).
      runtime.prepareRequestBodyWhenIdle(() => host.modelView().messages);
      this.#agent = agent;
      transcript.bindAgent(agent);
      this.#unsubscribe = agent.subscribe((event) => this.#listener(event));
      this.applyQueueModes();
      return agent;
    });
    // A chunk that fails to load is reported by the run that needed it, not as an unhandled rejection.
    this.#ready.catch(() => undefined);
  }

  /** The Agent once its chunk has loaded (loaded as the session opened; a run that starts sooner waits). */
  get ready(): Promise<Agent> {
    return this.#ready;
  }

  get answers(): ToolAnswers | undefined {
    return this.#answers;
  }

  get lastRequest(): LastRequest | undefined {
    return this.#lastRequest;
  }

  /**
   * Where the Agent's events go: the run controller, which turns them into facts. pi awaits what the
   * listener returns before it goes on (its `subscribe` promises that), so a listener can end a task there.
   */
  listen(listener: (event: AgentEvent) => void | Promise<void>): void {
    this.#listener = listener;
  }

  isWaitingFor(toolCallId: string | undefined): boolean {
    return this.#approvals.isWaiting(toolCallId);
  }

  /** Hand a decision to the gated tool call waiting on it; false when no call waits. */
  resolveApproval(toolCallId: string | undefined, decision: Decision): boolean {
    return this.#approvals.resolve(toolCallId, decision);
  }

  /** The model record for the session's model (a replay's, while one runs): the catalog's, or a stand-in. */
  model(): Model<Api> {
    return this.modelOf(this.#replay?.settings.model ?? this.#host.settings.current.model);
  }

  #thinkingLevel() {
    return this.#replay?.settings.thinkingLevel ?? this.#host.settings.current.thinkingLevel;
  }

  /** From now until `endReplay`, the Agent's runs are this replay's (its tools, settings and script). */
  beginReplay(replay: ReplayRun): void {
    this.#replay = replay;
    replay.bindAbort(() => this.abort());
  }

  endReplay(): void {
    this.#replay = undefined;
  }

  /** A model by provider and id, with what the catalog knows of it (its API, whether it takes images). */
  modelOf(ref: { provider: string; id: string }): Model<Api> {
    const info = this.#host.catalog.find(ref);
    return info ? modelFromInfo(info) : modelFromRef(ref);
  }

  /** Before a run: the Agent takes the transcript and the session's model, thinking level and queue modes. */
  prepareRun(agent: Agent): void {
    this.#streak.reset();
    this.#host.transcript.syncAgent();
    if (this.#runtime) agent.state.tools = this.#tools(this.#runtime);
    agent.state.model = this.model();
    agent.state.thinkingLevel = this.#thinkingLevel();
    this.applyQueueModes();
  }

  /** The session's queue modes, on the Agent's queues (they apply from the next delivery on). */
  applyQueueModes(): void {
    const agent = this.#agent;
    if (!agent) return;
    const modes = this.#host.settings.current.queueModes;
    agent.steeringMode = modes.steering;
    agent.followUpMode = modes.followUp;
  }

  /** The limit of tool calls in a row that ended the last run, told once; undefined when it ended by itself. */
  takeToolCallStop(): number | undefined {
    return this.#streak.takeStop();
  }

  /**
   * The Agent's tools for the session's definitions as they are now (those switched on); during a replay,
   * those it keeps, answered from the recording.
   */
  #tools(runtime: typeof import("./agent-runtime.ts")) {
    const replay = this.#replay;
    const offered = replay?.record.changes.tools;
    const definitions = runtime
      .sessionTools(this.#host.settings.current.tools)
      .map((definition) =>
        offered ? { ...definition, enabled: offered.includes(definition.name) } : definition,
      );
    const tools = runtime.agentToolsFor(definitions, {
      ask: (call, signal) =>
        this.#answers?.ask(call, signal) ??
        Promise.resolve({ text: "Nobody can answer here.", isError: true }),
    });
    return replay ? replay.tools(tools) : tools;
  }

  /**
   * The session's tools a variant column offers (those named, as the session defines them now): declared
   * to its model, never run (a column's turn is one call; a tool call ends it and is shown).
   */
  async toolsNamed(names: readonly string[]): Promise<Tool[]> {
    const runtime = this.#runtime ?? (await import("./agent-runtime.ts"));
    const definitions = runtime
      .sessionTools(this.#host.settings.current.tools)
      .map((definition) => ({ ...definition, enabled: names.includes(definition.name) }));
    return runtime.agentToolsFor(definitions, {
      ask: () => Promise.resolve({ text: "Variants do not run tools.", isError: true }),
    });
  }

  /** Abort the run in progress, if any. */
  abort(): void {
    this.#agent?.abort();
  }

  /** Leaving for good: abort, and an Agent whose chunk is still loading is never bound. */
  stop(): void {
    this.#stopped = true;
    this.#agent?.abort();
  }

  /** After the last run: let the Agent's last events be handled, then stop listening. */
  async detach(): Promise<void> {
    await this.#agent?.waitForIdle();
    this.#unsubscribe();
  }

  /**
   * The request the next call would make now, built as a run builds it: the transcript's context with
   * `prompt` and the messages held for the next turn appended (after pi's tool declarations), converted
   * for the model, with the session's model and the stream options the Agent passes on. Nothing is sent.
   */
  async nextRequest(prompt?: string): Promise<PreviewRequest> {
    // The Agent's chunk carries the request builders too; a preview waits for it as a run does.
    const [agent, runtime] = await Promise.all([this.#ready, import("./agent-runtime.ts")]);
    const { transcript, settings } = this.#host;
    const text = prompt?.trim();
    const pending = text ? [createUserMessage(text), ...settings.nextTurn] : [];
    // The tools the next run will have: the session's definitions as they are now.
    const added = runtime.declareToolChanges(transcript.context(), pending, this.#tools(runtime));
    const messages = convertToLlm(transcript.contextWith(added), settings.current.context.policies);
    const thinking = settings.current.thinkingLevel;
    const model = this.model();
    return runtime.previewRequestFor(model, messages, {
      ...runtime.samplingOptions(settings.current.sampling, model.api),
      reasoning: thinking === "off" ? undefined : thinking,
      sessionId: agent.sessionId,
      transport: agent.transport,
      thinkingBudgets: agent.thinkingBudgets,
      maxRetryDelayMs: agent.maxRetryDelayMs,
    });
  }

  /** The next call's request (see `nextRequest`) and the payload its provider would receive for it. */
  async previewNext(prompt?: string): Promise<NextCallPreview> {
    const request = await this.nextRequest(prompt);
    const response = await this.#host.router.preview?.(request);
    return { request, response: response ?? NO_PREVIEW };
  }

  /**
   * The fact behind each message of a request, by identity: the transcript's messages reach the request
   * as the very objects the model view holds (convertToLlm passes messages through or reuses its cached
   * conversions), so each sent message is found in the model view and traced to its fact's entry.
   */
  #sourcesOf(messages: readonly Message[]): (string | null)[] {
    const { transcript } = this.#host;
    const view = this.#host.modelView();
    // Read once: each read of the projection is a reactive read, and a request holds every message.
    const { factIds } = transcript.projection;
    return requestSources(messages, view.messages, view.sourceOf, (fact) =>
      fact < 0 ? null : (factIds[fact] ?? null),
    );
  }

  /**
   * Hold the call until the person continues; Cancel (an abort) rejects, and the run ends unsent. pi polls
   * the steering queue before this hook, so a steer made while the call waits would otherwise wait for
   * the call after it; by pi's own contract a steer is delivered before the next model call, and this
   * call is that one. So what was steered during the hold joins it, through the transcript (as many
   * messages as the Agent delivers before one call), and the view says so.
   */
  async #hold(signal: AbortSignal | undefined): Promise<void> {
    await this.gate.hold(signal);
    const joining = this.queues.takeForHeldCall();
    if (joining.length > 0) this.#host.transcript.append(joining);
  }
}
