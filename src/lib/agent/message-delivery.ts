import type { Agent, AgentMessage } from "@earendil-works/pi-agent-core";
import { createUserMessage } from "../messages/factories.ts";
import type { MessageQueues, RunQueue } from "./message-queues.svelte.ts";
import type { SessionSettingsState } from "./session-settings.svelte.ts";

/** How an injected message is delivered, in the terms of pi's `sendCustomMessage`. */
export type Delivery = "append" | "appendAndRun" | "steer" | "followUp" | "nextTurn";

/** What delivering needs of the session: its runs, the Agent's queues, the held messages and the facts. */
export interface DeliveryHost {
  /** A run is in progress. */
  running(): boolean;
  /** Start a run under the session's lock; false when it could not start (another tab runs the session). */
  run(start: (agent: Pick<Agent, "prompt">) => Promise<void>): Promise<boolean>;
  /** Make a change while no run is in progress, under the session's lock. */
  whileIdle(change: () => void): Promise<void>;
  queues: Pick<MessageQueues, "steer" | "followUp" | "remove" | "clear">;
  settings: Pick<SessionSettingsState, "holdForNextTurn" | "takeNextTurn" | "removeHeld" | "clearHeld">;
  /** Make messages facts of the session (through the transcript, their one writer). */
  append(messages: AgentMessage[]): void;
}

/**
 * How the person's messages reach the model, by pi's rules: a prompt starts a run (with what was held for
 * the next turn) or steers the one in progress; steering and follow-ups go through the Agent's queues; a
 * hand-made message is delivered as pi's `sendCustomMessage` delivers it; a bash execution is recorded as
 * pi's coding agent records it. What may not join the facts mid-run waits here for the turn or the run to
 * end.
 */
export class MessageDelivery {
  readonly #host: DeliveryHost;
  /** Messages appended (without a trigger) during a run: they join the facts when the turn ends. */
  #afterTurn: AgentMessage[] = [];
  /** Bash executions recorded during a run; appended when it ends, as pi's coding agent does. */
  #heldBash: AgentMessage[] = [];

  constructor(host: DeliveryHost) {
    this.#host = host;
  }

  /**
   * Send a prompt, with any messages held for the next turn; during a run it steers instead. Resolves
   * true when the prompt was taken, false when it could not be (another tab holds the session), so the
   * person's text is never dropped.
   */
  async send(text: string): Promise<boolean> {
    const prompt = text.trim();
    if (!prompt) return false;
    if (this.#host.running()) {
      this.#host.queues.steer(createUserMessage(prompt));
      return true;
    }
    return this.#host.run(async (agent) => {
      const held = this.#host.settings.takeNextTurn();
      await agent.prompt([createUserMessage(prompt), ...held]);
    });
  }

  steer(text: string): Promise<boolean> {
    if (!this.#host.running()) return this.send(text);
    this.#host.queues.steer(createUserMessage(text));
    return Promise.resolve(true);
  }

  followUp(text: string): Promise<boolean> {
    if (!this.#host.running()) return this.send(text);
    this.#host.queues.followUp(createUserMessage(text));
    return Promise.resolve(true);
  }

  removeQueued(queue: RunQueue | "nextTurn", index: number): void {
    if (queue === "nextTurn") void this.#host.settings.removeHeld(index);
    else this.#host.queues.remove(queue, index);
  }

  clearQueues(): void {
    this.#host.queues.clear();
    void this.#host.settings.clearHeld();
  }

  /**
   * Deliver a hand-made message, by the rules of pi's `sendCustomMessage`. Next turn: held for the next
   * prompt. During a run: steer or follow up through the Agent's queues ("append and run" steers), and a
   * plain append waits for the end of the turn (appending mid-turn could split a tool call from its
   * result). Idle: append, or append and run a turn; steering or following up with no run to steer
   * appends, as in pi (without a trigger, nothing runs).
   */
  async inject(message: AgentMessage, delivery: Delivery): Promise<void> {
    const running = this.#host.running();
    switch (delivery) {
      case "nextTurn":
        await this.#host.settings.holdForNextTurn(message);
        return;
      case "append":
        if (running) {
          this.#afterTurn.push(message);
          return;
        }
        await this.#appendWhileIdle(message);
        return;
      case "appendAndRun":
        if (running) {
          this.#host.queues.steer(message);
          return;
        }
        await this.#host.run((agent) => agent.prompt(message));
        return;
      case "steer":
      case "followUp":
        if (!running) {
          await this.#appendWhileIdle(message);
          return;
        }
        if (delivery === "steer") this.#host.queues.steer(message);
        else this.#host.queues.followUp(message);
        return;
    }
  }

  /** Record a bash execution typed as `!command` (or `!!command`). During a run it waits for the run to end. */
  async recordBash(message: AgentMessage): Promise<void> {
    if (this.#host.running()) {
      this.#heldBash.push(message);
      return;
    }
    await this.#appendWhileIdle(message);
  }

  /** The Agent ended a turn: what was appended during it joins the facts now. */
  turnEnded(): void {
    if (this.#afterTurn.length === 0) return;
    const waiting = this.#afterTurn;
    this.#afterTurn = [];
    this.#host.append(waiting);
  }

  /** The run ended (still under the lock): what waited for it, messages appended then bash executions. */
  runEnded(): void {
    const held = [...this.#afterTurn, ...this.#heldBash];
    this.#afterTurn = [];
    this.#heldBash = [];
    if (held.length > 0) this.#host.append(held);
  }

  #appendWhileIdle(message: AgentMessage): Promise<void> {
    return this.#host.whileIdle(() => this.#host.append([message]));
  }
}
