import { isMirrorSpeed, type MirrorSpeed } from "../../shared/mirror/mirror-speed.ts";
import { keyValueStore, type KeyValueStore } from "../storage/kv.ts";
import { TOOL_LIMITS } from "./tools/tool-limits.ts";

const SPEED_KEY = "mirror-speed";
const TOOL_CALLS_KEY = "tool-calls-per-run";
/** The most a person may set: a run stopped by it has still made that many calls. */
export const MAX_TOOL_CALLS_PER_RUN = 10_000;

/**
 * How this page makes model calls, for every session it opens: whether each call waits for the person
 * before it leaves (a debugging mode, so it starts off with every page and never stalls a later visit),
 * and the pace chosen for the offline models (remembered).
 *
 * Page-wide rather than per session: the promise "nothing leaves this page without my Continue" must
 * hold whichever session is open, and a switch that followed sessions could let a call out after a
 * click in the sidebar. Only the open session runs (leaving one stops its run), so one switch is enough.
 */
export class CallPreferences {
  readonly #store: () => KeyValueStore;
  #pauseBeforeCalls = $state(false);
  #mirrorSpeed = $state<MirrorSpeed | undefined>(undefined);
  #speedChosen = false;
  #toolCallsPerRun = $state(TOOL_LIMITS.toolCallsPerRun);
  #toolCallsChosen = false;

  constructor(store: () => KeyValueStore = keyValueStore) {
    this.#store = store;
  }

  get pauseBeforeCalls(): boolean {
    return this.#pauseBeforeCalls;
  }

  setPauseBeforeCalls(pause: boolean): void {
    this.#pauseBeforeCalls = pause;
  }

  /** The offline models' pace in tokens per second; undefined is their default pace. */
  get mirrorSpeed(): MirrorSpeed | undefined {
    return this.#mirrorSpeed;
  }

  setMirrorSpeed(speed: MirrorSpeed | undefined): Promise<void> {
    this.#speedChosen = true;
    this.#mirrorSpeed = speed;
    const store = this.#store();
    return (speed === undefined ? store.delete(SPEED_KEY) : store.set(SPEED_KEY, speed)).catch(
      () => undefined,
    );
  }

  /** Tool calls a run may make in a row before it is stopped (remembered; the build's default first). */
  get toolCallsPerRun(): number {
    return this.#toolCallsPerRun;
  }

  /** Set the limit; false (and nothing changed) for anything but a whole number from 1 to the maximum. */
  setToolCallsPerRun(limit: number): boolean {
    if (!validToolCallLimit(limit)) return false;
    this.#toolCallsChosen = true;
    this.#toolCallsPerRun = limit;
    void this.#store()
      .set(TOOL_CALLS_KEY, limit)
      .catch(() => undefined);
    return true;
  }

  /** Bring back the remembered speed and limit, unless chosen meanwhile. */
  async restore(): Promise<void> {
    try {
      const store = this.#store();
      const [speed, toolCalls] = await Promise.all([store.get(SPEED_KEY), store.get(TOOL_CALLS_KEY)]);
      if (!this.#speedChosen && isMirrorSpeed(speed)) this.#mirrorSpeed = speed;
      if (!this.#toolCallsChosen && validToolCallLimit(toolCalls)) this.#toolCallsPerRun = toolCalls;
    } catch {
      // The defaults, then.
    }
  }
}

function validToolCallLimit(value: unknown): value is number {
  return (
    typeof value === "number" && Number.isInteger(value) && value >= 1 && value <= MAX_TOOL_CALLS_PER_RUN
  );
}
