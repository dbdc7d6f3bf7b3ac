import type { AgentMessage, AgentTool, ThinkingLevel } from "@earendil-works/pi-agent-core";
import type { Message } from "@earendil-works/pi-ai";
import type { Sampling } from "../../../shared/sampling.ts";
import type { VisibilityPolicies } from "../../messages/policies.ts";
import type { ModelRef } from "../../models/model-ref.ts";
import type { AskedCall } from "../tool-answers.svelte.ts";
import { RecordedResults, replayCallLimit, type ReplayRecord, type ReplayScript } from "./replay-plan.ts";

/** What a person chose for a replayed tool call that has no recorded result. */
export type ReplayAnswer =
  { kind: "run" } | { kind: "typed"; text: string; isError: boolean } | { kind: "end" };

export type ReplayStatus = "running" | "done" | "stopped" | "ended" | "limit" | "failed";

export interface ReplaySettings {
  policies: VisibilityPolicies;
  model: ModelRef;
  thinkingLevel: ThinkingLevel;
  sampling: Sampling;
}

/**
 * One replay while it runs: its script (the facts delivered again, and when), the recorded tool results,
 * the settings its requests are made with, how far it got, and the tool call it waits on. The session's
 * Agent consults it through pi's hooks (its tools, `prepareRequest`, `convertToLlm`) while it runs.
 */
export class ReplayRun {
  readonly record: ReplayRecord;
  readonly settings: ReplaySettings;
  readonly limit: number;
  readonly #script: ReplayScript;
  readonly #results: RecordedResults;
  #next = 0;
  #calls = $state(0);
  #reused = $state(0);
  #ran = $state(0);
  #status = $state<ReplayStatus>("running");
  #note = $state<string | undefined>(undefined);
  #question = $state.raw<{ call: AskedCall; answer: (answer: ReplayAnswer) => void } | undefined>(undefined);
  /** Ends the run now (the session's Agent's abort). */
  #abort: () => void = () => undefined;

  constructor(
    record: ReplayRecord,
    script: ReplayScript,
    facts: readonly AgentMessage[],
    settings: ReplaySettings,
  ) {
    this.record = record;
    this.settings = settings;
    this.#script = script;
    this.#results = new RecordedResults(facts);
    this.limit = replayCallLimit(script.originalCalls);
  }

  get calls(): number {
    return this.#calls;
  }
  /** Tool calls answered with their recorded result. */
  get reused(): number {
    return this.#reused;
  }
  /** Tool calls a person chose to run. */
  get ran(): number {
    return this.#ran;
  }
  get status(): ReplayStatus {
    return this.#status;
  }
  /** Why the replay ended early, in words. */
  get note(): string | undefined {
    return this.#note;
  }
  get originalCalls(): number {
    return this.#script.originalCalls;
  }
  /** The tool call waiting for a person's choice (run it, type its result, or end the replay). */
  get question(): AskedCall | undefined {
    return this.#question?.call;
  }
  get going(): boolean {
    return this.#status === "running";
  }

  bindAbort(abort: () => void): void {
    this.#abort = abort;
  }

  /** The facts the first call follows, when the recorded branch starts with some. */
  first(): AgentMessage[] | undefined {
    const inputs = this.#script.inputs[0];
    if (inputs?.callsBefore !== 0) return undefined;
    this.#next = 1;
    return inputs.messages;
  }

  /** The next facts to deliver after a run that ended, if any are left. */
  next(): AgentMessage[] | undefined {
    const inputs = this.#script.inputs[this.#next];
    if (!inputs) return undefined;
    this.#next++;
    return inputs.messages;
  }

  /**
   * Just before a model call: the facts recorded before the call of the same number, delivered now. Past
   * the replay's call limit the run is ended instead (it throws, and pi records the reply as aborted).
   */
  beforeCall(): AgentMessage[] {
    if (!this.going) throw new Error(this.#note ?? "The replay was ended.");
    if (this.#calls >= this.limit) {
      this.#finish("limit", `The replay was ended after ${this.limit} calls, its limit.`);
      this.#abort();
      throw new Error(`The replay was ended after ${this.limit} calls, its limit.`);
    }
    const due: AgentMessage[] = [];
    for (let inputs = this.#script.inputs[this.#next]; inputs && inputs.callsBefore <= this.#calls;) {
      due.push(...inputs.messages);
      this.#next++;
      inputs = this.#script.inputs[this.#next];
    }
    this.#calls++;
    return due;
  }

  /** The messages a request of the replay sends: with the replay's system prompt, when it changes it. */
  view(messages: AgentMessage[]): AgentMessage[] {
    const prompt = this.record.changes.systemPrompt;
    const first = messages[0];
    if (prompt === undefined || first?.role !== "system") return messages;
    return [{ ...first, content: prompt, sections: undefined } as Message, ...messages.slice(1)];
  }

  /**
   * The replay's tools: each declared as the session's, and answered from the recording when a call with
   * the same name and arguments was recorded; any other waits for a person.
   */
  tools(tools: readonly AgentTool[]): AgentTool[] {
    return tools.map((tool) => ({
      ...tool,
      execute: async (toolCallId, params, signal, onUpdate) => {
        const recorded = this.#results.take(tool.name, params);
        if (recorded) {
          this.#reused++;
          return { ...recorded, details: recorded.details };
        }
        const answer = await this.#ask({ toolCallId, toolName: tool.name, args: params }, signal);
        switch (answer.kind) {
          case "run":
            this.#ran++;
            return tool.execute(toolCallId, params, signal, onUpdate);
          case "typed":
            return {
              content: [{ type: "text", text: answer.text }],
              details: { source: "typed" },
              isError: answer.isError,
            };
          case "end":
            this.#finish("ended", `The replay was ended at a call of ${tool.name} with no recorded result.`);
            this.#abort();
            return {
              content: [{ type: "text", text: "The replay was ended here." }],
              details: undefined,
              isError: true,
            };
        }
      },
    }));
  }

  /** A person's choice for the tool call waiting; false when none waits. */
  answer(answer: ReplayAnswer): boolean {
    const question = this.#question;
    question?.answer(answer);
    return question !== undefined;
  }

  /** The run is over: how it ended (unless it already said). */
  finished(outcome: "done" | "stopped" | "failed", note?: string): void {
    if (this.#status === "running") this.#finish(outcome, note);
    this.#question = undefined;
  }

  #finish(status: ReplayStatus, note: string | undefined): void {
    this.#status = status;
    this.#note = note;
  }

  #ask(call: AskedCall, signal: AbortSignal | undefined): Promise<ReplayAnswer> {
    return new Promise((resolve) => {
      const settle = (answer: ReplayAnswer) => {
        signal?.removeEventListener("abort", onAbort);
        this.#question = undefined;
        resolve(answer);
      };
      const onAbort = () => settle({ kind: "typed", text: "The replay was stopped.", isError: true });
      if (signal?.aborted) return onAbort();
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#question = { call, answer: settle };
    });
  }
}
