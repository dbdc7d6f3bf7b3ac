import type { AssistantMessage, AssistantMessageEvent } from "@earendil-works/pi-ai";
import type { CallBodyRecord, CallRecord } from "../../storage/records.ts";
import { ShowPacer } from "../show-pacer.ts";
import {
  promptProblem,
  type ColumnSetup,
  type ColumnTurn,
  type VariantLink,
  type VariantSetView,
} from "./variant-set.ts";

export type ColumnStatus = "idle" | "streaming" | "done" | "stopped" | "failed";

/** What a column shows while its turn streams: the text so far, and how the turn stands. */
export interface ColumnLive {
  text: string;
  status: ColumnStatus;
  error: string | undefined;
}

/** What the run needs of the session: a column's turn, and where the session is on its tree. */
export interface VariantRunHost {
  runVariantTurn(
    link: VariantLink,
    earlier: readonly ColumnTurn[],
    signal: AbortSignal,
    onEvent?: (event: AssistantMessageEvent) => void,
    at?: number,
  ): Promise<{ call: CallRecord; reply: AssistantMessage }>;
  readonly leafId: string | null;
}

const IDLE: ColumnLive = { text: "", status: "idle", error: undefined };

/**
 * One comparison of variants while this tab works on it: its columns' settings, each column's turns so
 * far (what the next turn is sent after), and what each column streams now. A prompt goes to every
 * column at once and the columns stream in parallel; each can be stopped alone, or all together. What
 * streams is shown for all columns together, in one update on a frame at most every `SHOW_INTERVAL_MS` (the
 * chat's pace), whatever the pace of each: each showing costs a layout, paint and commit of the whole tab
 * however few characters it adds.
 */
export class VariantRun {
  readonly id: string;
  readonly baseLeafId: string | null;
  readonly columns: readonly ColumnSetup[];
  readonly #host: VariantRunHost;
  readonly #turns: ColumnTurn[][];
  #controllers: (AbortController | undefined)[];
  #live = $state.raw<ColumnLive[]>([]);
  #sending = $state(false);
  #turnCount = $state(0);
  #prompts = $state.raw<string[]>([]);
  /** Text streamed since the columns last showed it, per column. */
  #buffers: string[];
  readonly #pacer = new ShowPacer(() => this.#flush());

  constructor(
    host: VariantRunHost,
    columns: readonly ColumnSetup[],
    {
      id = crypto.randomUUID() as string,
      baseLeafId = host.leafId,
      turns = [] as ColumnTurn[][],
    }: { id?: string; baseLeafId?: string | null; turns?: ColumnTurn[][] } = {},
  ) {
    this.#host = host;
    this.id = id;
    this.baseLeafId = baseLeafId;
    this.columns = columns.map((column) => structuredClone(column));
    this.#turns = columns.map((_, index) => [...(turns[index] ?? [])]);
    this.#turnCount = Math.max(0, ...this.#turns.map((column) => column.length));
    this.#prompts = Array.from(
      { length: this.#turnCount },
      (_, turn) =>
        this.#turns.map((column) => column[turn]?.prompt).find((prompt) => prompt !== undefined) ?? "",
    );
    this.#controllers = columns.map(() => undefined);
    this.#buffers = columns.map(() => "");
    this.#live = columns.map(() => IDLE);
  }

  /** A comparison stored with the session, taken up again: each column's turns read from its calls. */
  static async resume(
    host: VariantRunHost,
    set: VariantSetView,
    body: (call: CallRecord) => Promise<CallBodyRecord | undefined>,
  ): Promise<VariantRun> {
    const turns = await Promise.all(
      set.columns.map((column) =>
        Promise.all(
          set.prompts.map(async (prompt, turn): Promise<ColumnTurn> => {
            const call = column.turns[turn];
            const kept = call ? (await body(call))?.reply : undefined;
            const reply = kept?.kept === "all" && Array.isArray(kept.value?.content) ? kept.value : undefined;
            return { prompt, at: call?.startedAt ?? 0, reply };
          }),
        ),
      ),
    );
    return new VariantRun(
      host,
      set.columns.map((column) => column.setup),
      { id: set.id, baseLeafId: set.baseLeafId, turns },
    );
  }

  get live(): readonly ColumnLive[] {
    return this.#live;
  }
  get sending(): boolean {
    return this.#sending;
  }
  /** The prompts sent so far, one per turn. */
  get prompts(): readonly string[] {
    return this.#prompts;
  }
  /** Turns sent so far (the next prompt is turn number `turnCount`, from 0). */
  get turnCount(): number {
    return this.#turnCount;
  }
  /** Each column's turns so far: what "Use this variant" makes a branch of. */
  turnsOf(column: number): readonly ColumnTurn[] {
    return this.#turns[column] ?? [];
  }
  /** The session is on the leaf this comparison follows: only then can it take another prompt. */
  get onItsBranch(): boolean {
    return this.#host.leafId === this.baseLeafId;
  }

  /**
   * Send `prompt` to every column at once; resolves once all have ended (each recorded as a call, or
   * failed with its reason shown in its column), or at once with why it cannot be sent.
   */
  async send(prompt: string): Promise<string | undefined> {
    const problem = promptProblem(prompt);
    if (problem) return problem;
    if (this.#sending) return "The columns are still answering the last prompt.";
    if (!this.onItsBranch)
      return "The session is on another branch now: go back to the branch these variants compare over.";
    this.#sending = true;
    const turn = this.#turnCount;
    this.#turnCount = turn + 1;
    this.#prompts = [...this.#prompts, prompt];
    this.#live = this.columns.map(() => ({ text: "", status: "streaming", error: undefined }));
    this.#pacer.shownNow();
    try {
      await Promise.all(this.columns.map((setup, column) => this.#runColumn(setup, column, turn, prompt)));
    } finally {
      this.#sending = false;
    }
    return undefined;
  }

  async #runColumn(setup: ColumnSetup, column: number, turn: number, prompt: string): Promise<void> {
    const controller = new AbortController();
    this.#controllers[column] = controller;
    const link: VariantLink = { set: this.id, column, turn, prompt, baseLeafId: this.baseLeafId, setup };
    const earlier = [...(this.#turns[column] ?? [])];
    let status: ColumnStatus = "done";
    let error: string | undefined;
    let reply: AssistantMessage | undefined;
    const at = Date.now();
    try {
      const result = await this.#host.runVariantTurn(
        link,
        earlier,
        controller.signal,
        (event) => this.#streamed(column, event),
        at,
      );
      reply = result.reply;
      if (reply.stopReason === "aborted") status = "stopped";
      else if (reply.stopReason === "error") status = "failed";
      error = reply.errorMessage;
    } catch (thrown) {
      status = controller.signal.aborted ? "stopped" : "failed";
      error = (thrown as Error).message;
    } finally {
      this.#controllers[column] = undefined;
    }
    this.#turns[column] = [...earlier.slice(0, turn), { prompt, at, reply }];
    // What streamed since the columns last showed it joins the text as the column ends.
    const rest = this.#buffers[column] ?? "";
    this.#buffers[column] = "";
    this.#live = this.#live.map((live, index) =>
      index === column ? { text: live.text + rest, status, error } : live,
    );
  }

  #streamed(column: number, event: AssistantMessageEvent): void {
    if (event.type !== "text_delta" && event.type !== "thinking_delta" && event.type !== "toolcall_delta")
      return;
    this.#buffers[column] += event.delta;
    this.#pacer.ask();
  }

  /** On a frame the pacer allows: what every column streamed since, shown in one update. */
  #flush(): boolean {
    const buffers = this.#buffers;
    if (buffers.every((text) => text === "")) return false;
    this.#live = this.#live.map((live, column) =>
      buffers[column] ? { ...live, text: live.text + buffers[column] } : live,
    );
    this.#buffers = this.columns.map(() => "");
    return true;
  }

  /** Stop one column's turn (the others go on), or every column's. */
  stop(column?: number): void {
    if (column === undefined) for (const controller of this.#controllers) controller?.abort();
    else this.#controllers[column]?.abort();
  }
}
