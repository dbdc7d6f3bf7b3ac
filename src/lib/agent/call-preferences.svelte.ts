import { isMirrorSpeed, type MirrorSpeed } from "../../shared/mirror/mirror-speed.ts";
import { keyValueStore, type KeyValueStore } from "../storage/kv.ts";

const SPEED_KEY = "mirror-speed";

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

  /** Bring back the remembered speed, unless one was chosen meanwhile. */
  async restore(): Promise<void> {
    try {
      const saved = await this.#store().get(SPEED_KEY);
      if (!this.#speedChosen && isMirrorSpeed(saved)) this.#mirrorSpeed = saved;
    } catch {
      // The default pace, then.
    }
  }
}
