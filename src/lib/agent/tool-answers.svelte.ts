/** A result a person typed for a tool call. */
export interface TypedResult {
  text: string;
  isError: boolean;
}

/** A tool call waiting for its result to be typed: which call, with which arguments. */
export interface AskedCall {
  toolCallId: string;
  toolName: string;
  args: unknown;
}

/**
 * Tool calls whose result a person types ("ask me" tools, and a replay's calls that have no recorded
 * result): the run waits on each until it is answered, as it waits for an approval; stopping the run
 * ends the wait with an error result.
 */
export class ToolAnswers {
  /** The calls waiting, by tool call id: replaced, never changed in place, on each change. */
  #waiting = $state.raw<ReadonlyMap<string, { call: AskedCall; answer: (result: TypedResult) => void }>>(
    new Map(),
  );

  /** Whether the call with this id waits for its result now. */
  isWaiting(toolCallId: string | undefined): boolean {
    return toolCallId !== undefined && this.#waiting.has(toolCallId);
  }

  /** The calls waiting now, in the order they asked. */
  get waiting(): AskedCall[] {
    return [...this.#waiting.values()].map((entry) => entry.call);
  }

  /** Give the call waiting with this id its result; false when none waits. */
  answer(toolCallId: string, result: TypedResult): boolean {
    const entry = this.#waiting.get(toolCallId);
    entry?.answer(result);
    return entry !== undefined;
  }

  /** Wait for a person to type this call's result (an aborted signal ends the wait with an error). */
  ask(call: AskedCall, signal?: AbortSignal): Promise<TypedResult> {
    return new Promise<TypedResult>((resolve) => {
      const settle = (result: TypedResult) => {
        signal?.removeEventListener("abort", onAbort);
        const waiting = new Map(this.#waiting);
        waiting.delete(call.toolCallId);
        this.#waiting = waiting;
        resolve(result);
      };
      const onAbort = () =>
        settle({ text: "The run was stopped before anyone typed a result.", isError: true });
      if (signal?.aborted) {
        resolve({ text: "The run was stopped before anyone typed a result.", isError: true });
        return;
      }
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#waiting = new Map(this.#waiting).set(call.toolCallId, { call, answer: settle });
    });
  }
}
