import type { Agent, AgentMessage } from "@earendil-works/pi-agent-core";

export type RunQueue = "steering" | "followUp";

/**
 * A visible mirror of the Agent's steering and follow-up queues. The Agent only lets us peek at what it
 * will deliver next, so we keep the lists ourselves, match deliveries by object identity (the Agent
 * emits the very object it was given), and rebuild its queue when one item is removed.
 */
export class MessageQueues {
  /** The Agent once loaded; before that no run exists, and its queues are empty. */
  readonly #agent: () => Agent | undefined;
  #steering = $state.raw<AgentMessage[]>([]);
  #followUp = $state.raw<AgentMessage[]>([]);

  constructor(agent: () => Agent | undefined) {
    this.#agent = agent;
  }

  get steering(): readonly AgentMessage[] {
    return this.#steering;
  }
  get followUps(): readonly AgentMessage[] {
    return this.#followUp;
  }

  /** How many queued steering messages the Agent delivers before one call: one at a time, or all. */
  get steeringPerCall(): number {
    return this.#agent()?.steeringMode === "all" ? Number.POSITIVE_INFINITY : 1;
  }

  /**
   * The steering messages that join a call held before it is sent: as many as the Agent would deliver
   * before a call, first in first out, taken out of its queue (the rest wait for the next call).
   */
  takeForHeldCall(): AgentMessage[] {
    const agent = this.#agent();
    const taken = this.#steering.slice(0, this.steeringPerCall);
    if (!agent || taken.length === 0) return [];
    this.#steering = this.#steering.slice(taken.length);
    agent.clearSteeringQueue();
    for (const message of this.#steering) agent.steer(message);
    return taken;
  }

  /** Delivered after the current turn's tool calls finish. */
  steer(message: AgentMessage): void {
    this.#agent()?.steer(message);
    this.#steering = [...this.#steering, message];
  }

  /** Delivered only when the agent would otherwise stop. */
  followUp(message: AgentMessage): void {
    this.#agent()?.followUp(message);
    this.#followUp = [...this.#followUp, message];
  }

  /** The Agent started delivering `message`: it leaves its queue. */
  delivered(message: AgentMessage): void {
    if (this.#steering.includes(message)) this.#steering = this.#steering.filter((item) => item !== message);
    else if (this.#followUp.includes(message))
      this.#followUp = this.#followUp.filter((item) => item !== message);
  }

  remove(queue: RunQueue, index: number): void {
    if (queue === "steering") {
      this.#steering = this.#steering.filter((_, position) => position !== index);
      this.#agent()?.clearSteeringQueue();
      for (const message of this.#steering) this.#agent()?.steer(message);
    } else {
      this.#followUp = this.#followUp.filter((_, position) => position !== index);
      this.#agent()?.clearFollowUpQueue();
      for (const message of this.#followUp) this.#agent()?.followUp(message);
    }
  }

  clear(): void {
    this.#agent()?.clearAllQueues();
    this.#steering = [];
    this.#followUp = [];
  }
}
