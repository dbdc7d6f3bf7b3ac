/**
 * Counts the tool calls a run makes in a row, for pi's `finishTurn` hook: a turn whose reply called no tool
 * ends the streak, and a streak that reaches the limit ends the run before the model is asked again.
 */
export class ToolCallStreak {
  readonly #limit: () => number;
  #count = 0;
  #stoppedAt: number | undefined;

  constructor(limit: () => number) {
    this.#limit = limit;
  }

  /** A run starts: nothing counted yet. */
  reset(): void {
    this.#count = 0;
    this.#stoppedAt = undefined;
  }

  /** A turn finished with this many tool calls executed; "stop" when the run must end here. */
  afterTurn(toolCalls: number): "go on" | "stop" {
    if (toolCalls === 0) {
      this.#count = 0;
      return "go on";
    }
    this.#count += toolCalls;
    const limit = this.#limit();
    if (this.#count < limit) return "go on";
    this.#stoppedAt = limit;
    return "stop";
  }

  /** The limit that stopped the last run, once: undefined when it ended by itself. */
  takeStop(): number | undefined {
    const limit = this.#stoppedAt;
    this.#stoppedAt = undefined;
    return limit;
  }
}

/** What the person reads when a run was stopped by the limit. */
export function toolStreakNotice(limit: number): string {
  return `The run was stopped after ${limit} tool ${limit === 1 ? "call" : "calls"} in a row, the limit set in Tools: the model was not asked again. Send a message to go on, or raise the limit.`;
}
