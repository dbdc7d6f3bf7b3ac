import type { Agent, AgentEvent } from "@earendil-works/pi-agent-core";
import type { AssistantMessage } from "@earendil-works/pi-ai";
import { createUserMessage } from "../messages/factories.ts";
import type { Notices } from "../notices/notices.svelte.ts";
import type { SessionStore } from "../storage/session-store.ts";
import type { SessionWriter } from "../storage/session-writer.ts";
import type { TabChannel, TabLock } from "../storage/tab-sync.ts";
import { decided, type ApprovalDecision } from "./approvals.ts";
import { MessageDelivery } from "./message-delivery.ts";
import type { CallRecorder } from "./recording/call-recorder.ts";
import type { Replica } from "./replica.svelte.ts";
import type { SessionAgent } from "./session-agent.svelte.ts";
import type { SessionSettingsState } from "./session-settings.svelte.ts";
import type { StreamingReply } from "./streaming-reply.svelte.ts";
import { toolStreakNotice } from "./tool-call-streak.ts";
import type { Transcript } from "./transcript.svelte.ts";
import { REPLAY_ENTRY_TYPE } from "./replay/replay-plan.ts";
import type { ReplayRun } from "./replay/replay-run.svelte.ts";
import { yieldToPage } from "./yield-to-page.ts";

export interface RunHost {
  sessionId: string;
  store: SessionStore;
  channel: TabChannel;
  tabId: string;
  notices: Notices;
  transcript: Transcript;
  settings: SessionSettingsState;
  writer: SessionWriter;
  replica: Replica;
  recorder: CallRecorder;
  lock: TabLock;
  /** pi's Agent, wired to the session: what the runs run. */
  agent: SessionAgent;
  /** The reply streaming now, shown per frame and kept in flight (made with the session, shared with the replica). */
  reply: StreamingReply;
  /** Why this session takes no runs or changes from the page (a live pi writes its facts), if it does not. */
  readOnly?: () => string | undefined;
}

const RUNNING_ELSEWHERE =
  "This session is running in another tab. Wait for it to finish, or open another session.";

/**
 * Runs the session's pi `Agent`: the runs that messages start (see `MessageDelivery`), regenerating,
 * resending and retrying, stops, tool approval decisions, idle changes, and the reply that is streaming.
 * Each run and each idle change holds the session's lock and first catches up with other tabs, so two
 * tabs never interleave. The transcript is the Agent's source: it sets the Agent's messages before a run,
 * and the Agent's events become facts through it.
 */
export class RunController {
  /** How the person's messages reach the model; what may not join the facts mid-run waits there. */
  readonly delivery: MessageDelivery;
  readonly #host: RunHost;
  readonly #agent: SessionAgent;
  readonly #reply: StreamingReply;
  #running = $state(false);
  /**
   * Stop was asked for during this run. A run is running from the moment it is asked for, but the Agent
   * has a run to abort only once it has started it (after the lock and the catch-up): a stop before that
   * is carried out when the Agent's run starts.
   */
  #stopRequested = false;
  #runPromise: Promise<void> = Promise.resolve();
  #closed = false;

  constructor(host: RunHost) {
    this.#host = host;
    this.#agent = host.agent;
    this.#reply = host.reply;
    this.delivery = new MessageDelivery({
      running: () => this.#running,
      run: (start) => this.#run(start),
      whileIdle: (change) => this.whileIdle(change),
      queues: host.agent.queues,
      settings: host.settings,
      append: (messages) => void host.transcript.append(messages),
    });
    host.agent.listen((event) => this.#onEvent(event));
  }

  get running(): boolean {
    return this.#running;
  }

  /** The assistant message streaming right now, updated per frame. */
  get streaming(): AssistantMessage | undefined {
    return this.#reply.current;
  }

  // --- runs from elsewhere on the tree, and retries ------------------------------------------------

  /**
   * Answer again from before a reply: the path moves back to the fact the reply answered, and a new reply
   * branches off there (the old one stays in the tree, on its own branch).
   */
  async regenerate(replyEntryId: string): Promise<void> {
    const { transcript } = this.#host;
    const parent = transcript.entry(replyEntryId)?.parentId;
    if (this.#running || parent === undefined || parent === null) return;
    await this.#run(async (agent) => {
      transcript.moveLeaf(parent);
      transcript.syncAgent();
      await continueFrom(agent);
    });
  }

  /** Send an edited prompt in place of an earlier one: a new branch from where that prompt was asked. */
  async resend(promptEntryId: string, text: string): Promise<boolean> {
    const { transcript } = this.#host;
    const entry = transcript.entry(promptEntryId);
    const prompt = text.trim();
    if (this.#running || !entry || !prompt) return false;
    return this.#run(async (agent) => {
      transcript.moveLeaf(entry.parentId);
      transcript.syncAgent();
      const held = this.#host.settings.takeNextTurn();
      await agent.prompt([createUserMessage(prompt), ...held]);
    });
  }

  /**
   * Try again after a reply that failed or was stopped, as pi's coding agent does: the failed attempt stays
   * among the facts, a context edit leaves it out of what the model reads, and the Agent continues.
   */
  async retry(): Promise<void> {
    if (this.#running) return;
    await this.#run(async (agent) => {
      const { transcript } = this.#host;
      const index = transcript.facts.length - 1;
      const last = transcript.facts[index];
      const entryId = transcript.entryIdAt(index);
      if (
        last?.role === "assistant" &&
        (last.stopReason === "error" || last.stopReason === "aborted") &&
        entryId
      ) {
        transcript.appendEntry({ type: "context_edit", targetId: entryId, replacement: null });
        transcript.syncAgent();
      }
      await continueFrom(agent);
    });
  }

  /**
   * Run the agent loop again from a fact, on a new branch: the branch starts with the replay's own entry
   * (pi's `custom` entry, which the model never reads) and the context edits it makes; then the facts
   * recorded after that fact are delivered again where they were (the first ones as the prompt, the others
   * just before the call they preceded, or as the next prompt when the run ended sooner), and the model
   * answers with the replay's settings. The recorded branch stays as it was.
   */
  async replay(run: ReplayRun): Promise<boolean> {
    const { transcript } = this.#host;
    if (this.#running) return false;
    return this.#run(async (agent) => {
      const { record } = run;
      transcript.moveLeaf(record.fromEntryId);
      transcript.appendEntry({ type: "custom", customType: REPLAY_ENTRY_TYPE, data: record });
      for (const targetId of record.changes.omit ?? [])
        transcript.appendEntry({ type: "context_edit", targetId, replacement: null });
      this.#agent.beginReplay(run);
      try {
        this.#agent.prepareRun(agent);
        const first = run.first();
        if (first) await agent.prompt(first);
        else await continueFrom(agent);
        for (let next = this.#replayGoes(run) ? run.next() : undefined; next;) {
          transcript.syncAgent();
          await agent.prompt(next);
          next = this.#replayGoes(run) ? run.next() : undefined;
        }
        const last = transcript.facts.at(-1);
        if (this.#stopRequested) run.finished("stopped");
        else if (last?.role === "assistant" && last.stopReason === "error")
          run.finished("failed", last.errorMessage ?? "The model answered with an error.");
        else run.finished("done");
      } catch (error) {
        run.finished("failed", (error as Error).message);
        throw error;
      } finally {
        this.#agent.endReplay();
      }
    });
  }

  /** A replay goes on while nobody stopped it and its last reply neither failed nor was stopped. */
  #replayGoes(run: ReplayRun): boolean {
    if (this.#stopRequested || !run.going) return false;
    const last = this.#host.transcript.facts.at(-1);
    return !(last?.role === "assistant" && (last.stopReason === "error" || last.stopReason === "aborted"));
  }

  /** Abort the run; the partial reply is kept and marked aborted. */
  stop(): void {
    if (this.#running) this.#stopRequested = true;
    this.#agent.abort();
  }

  /** Decide an approval request. A gated tool call waiting on it continues (or is blocked) at once. */
  async decide(factIndex: number, status: ApprovalDecision, reason?: string): Promise<void> {
    const { transcript, replica } = this.#host;
    const fact = transcript.facts[factIndex];
    if (fact?.role !== "approval_request" || fact.status !== "pending") return;
    if (this.#agent.resolveApproval(fact.toolCallId, reason ? { status, reason } : { status })) return;
    if (replica.runningElsewhere) {
      this.#notice("This session is running in another tab; decide there.");
      return;
    }
    const apply = () => void transcript.replaceFact(fact, decided(fact, status, reason));
    if (this.#running) apply();
    else await this.whileIdle(apply);
  }

  /**
   * Change the system prompt. pi keeps it in the transcript as the leading system message, so this
   * replaces that fact; the model reads the new prompt on its next request.
   */
  async setSystemPrompt(prompt: string): Promise<void> {
    if (this.#running) {
      this.#notice("The system prompt can be changed when no run is active.");
      return;
    }
    await this.whileIdle(() => {
      const { transcript } = this.#host;
      const first = transcript.facts[0];
      if (first?.role === "system") transcript.replaceAt(0, { ...first, content: prompt });
      else this.#notice("This session does not start with a system message, so it has no prompt to edit.");
    });
  }

  /** Save the streaming reply right away (the page is being hidden or unloaded). */
  saveStreamingNow(): void {
    this.#reply.saveNow();
  }

  /** Stop a run in progress and wait until its last fact is handled and a write attempted. */
  async settle(): Promise<void> {
    this.stop();
    await this.#runPromise;
    await this.#host.writer.flush();
  }

  /** Stop for good: abort, let the last events be handled (the partial reply is stored), then detach. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#agent.stop();
    await this.#runPromise;
    await this.#agent.detach();
  }

  // --- runs and locking ----------------------------------------------------------------------------

  /** Run a turn under the session's lock; false when it could not start (another tab runs the session). */
  async #run(start: (agent: Agent) => Promise<void>): Promise<boolean> {
    if (this.#running) return false;
    const readOnly = this.#host.readOnly?.();
    if (readOnly) {
      this.#notice(readOnly);
      return false;
    }
    if (this.#host.replica.runningElsewhere) {
      this.#notice(RUNNING_ELSEWHERE);
      return false;
    }
    this.#running = true;
    this.#host.replica.runStarted();
    this.#stopRequested = false;
    this.#host.notices.dismiss(this.#noticeKey);
    const run = this.#runLocked(start);
    this.#runPromise = run.then(() => undefined);
    return run;
  }

  async #runLocked(start: (agent: Agent) => Promise<void>): Promise<boolean> {
    const { channel, sessionId, lock, replica, writer } = this.#host;
    try {
      // Loaded as the session opened; a run that starts sooner waits for it here.
      const agent = await this.#agent.ready;
      const outcome = await lock.run(async () => {
        channel.post({ type: "running", sessionId, running: true });
        try {
          await this.#catchUp();
          this.#agent.prepareRun(agent);
          if (!this.#closed) await start(agent);
          const limit = this.#agent.takeToolCallStop();
          if (limit !== undefined) this.#notice(toolStreakNotice(limit));
        } finally {
          // Still under the lock: bash recorded during the run lands now, then what others wrote meanwhile.
          this.#running = false;
          this.delivery.runEnded();
          await replica.runEnded();
          await writer.flush();
          this.#holdWhileUnsaved();
          channel.post({ type: "running", sessionId, running: false });
        }
      });
      if (!outcome.acquired) this.#busyElsewhere(RUNNING_ELSEWHERE);
      return outcome.acquired;
    } catch (error) {
      this.#notice(`The run could not start: ${(error as Error).message}`);
      return false;
    } finally {
      this.#running = false;
      // A run that never held the lock reads what other tabs wrote meanwhile now (a no-op otherwise).
      void this.#host.replica.runEnded();
      this.#reply.stop();
    }
  }

  /** Idle changes take the session's lock too, so two tabs never interleave writes into one session. */
  async whileIdle(change: () => void | Promise<void>): Promise<void> {
    const readOnly = this.#host.readOnly?.();
    if (readOnly) {
      this.#notice(readOnly);
      return;
    }
    try {
      const outcome = await this.#host.lock.run(async () => {
        await this.#catchUp();
        await change();
        await this.#host.writer.flush();
        this.#holdWhileUnsaved();
      });
      if (!outcome.acquired)
        this.#busyElsewhere("This session is busy in another tab; try again when it is done.");
    } catch (error) {
      this.#notice(`That change could not be made: ${(error as Error).message}`);
    }
  }

  async #catchUp(): Promise<void> {
    await this.#host.replica.catchUp();
    await this.#host.replica.restoreInterrupted();
  }

  /** Another tab holds the session's lock: show it as running there, and say why nothing happened. */
  #busyElsewhere(text: string): void {
    this.#host.replica.setRunningElsewhere(true);
    this.#notice(text);
  }

  /**
   * Facts only this tab has (their write failed) must not be overtaken by another tab's: keep the
   * session's lock until they are stored, so other tabs wait instead of forking the transcript.
   */
  #holdWhileUnsaved(): void {
    const { lock, writer } = this.#host;
    if (writer.pending) void lock.run(() => writer.whenSaved());
  }

  get #noticeKey(): string {
    return `run:${this.#host.sessionId}`;
  }

  #notice(text: string): void {
    this.#host.notices.post({ key: this.#noticeKey, severity: "warning", source: "session", text });
  }

  /**
   * pi awaits each listener before it goes on, so where this returns a yield, pi's next step runs in a task
   * of its own. In a large session pi's steps and the session's are each a walk or a copy of the whole
   * context: pi's `prompt()` copies it and walks it to declare tool changes before `agent_start`, and walks
   * it again before each request (after the prompt's `message_end`); storing a fact updates the path, the
   * projection, the model view and the chat (Svelte's flush runs in the microtasks before the yield). One task
   * for all of them was the longest task of a send; a task each is at most the largest of them.
   */
  #onEvent(event: AgentEvent): void | Promise<void> {
    switch (event.type) {
      case "agent_start":
        if (this.#stopRequested) this.#agent.abort();
        return yieldToPage();
      case "message_start":
        this.#agent.queues.delivered(event.message);
        if (event.message.role === "assistant") this.#reply.start(event.message);
        return;
      case "message_update":
        if (event.message.role === "assistant") {
          this.#reply.update(event.message);
          this.#host.recorder.token();
        }
        return;
      case "turn_end":
        this.delivery.turnEnded();
        return;
      case "message_end": {
        const [entry] = this.#host.transcript.append([event.message]);
        if (event.message.role === "assistant") {
          this.#reply.stop();
          this.#host.replica.replyFinal();
          this.#host.recorder.end(event.message, entry?.id);
        }
        return yieldToPage();
      }
      // The run's end and the tools' progress reach the page through the agent's promise and its
      // messages; nothing here waits for them.
      case "agent_end":
      case "turn_start":
      case "tool_execution_start":
      case "tool_execution_update":
      case "tool_execution_end":
        return;
    }
  }
}

/** Continuing needs the context to end with something the model answers (a prompt or a tool result). */
function continueFrom(agent: Agent): Promise<void> {
  return agent.state.messages.at(-1)?.role === "assistant" ? agent.prompt([]) : agent.continue();
}
