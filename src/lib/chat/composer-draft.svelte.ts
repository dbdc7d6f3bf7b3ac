import type { KeyValueStore } from "../storage/kv.ts";
import { isObject } from "../../shared/is-object.ts";

/** What the composer holds: the message, and for a `!command` the output and exit code typed beside it. */
export interface ComposerFields {
  text: string;
  output: string;
  exitCode: string;
}

const EMPTY: ComposerFields = { text: "", output: "", exitCode: "0" };
const SAVE_DELAY_MS = 250;

/**
 * What a person is typing into one session's composer. It is kept (per session, in the key-value store)
 * as it is typed, so a reload or a crash never loses it, and it is cleared only once the session took the
 * message: a prompt the session could not take (another tab runs it) comes back into the composer.
 */
export class ComposerDraft {
  readonly #store: KeyValueStore;
  readonly #key: string;
  #fields = $state.raw<ComposerFields>(EMPTY);
  #timer: ReturnType<typeof setTimeout> | undefined;
  #edited = false;

  constructor(store: KeyValueStore, sessionId: string) {
    this.#store = store;
    this.#key = `composer:${sessionId}`;
  }

  get text(): string {
    return this.#fields.text;
  }
  get output(): string {
    return this.#fields.output;
  }
  get exitCode(): string {
    return this.#fields.exitCode;
  }

  /** Bring back what was typed before the page was reloaded, unless the person already started typing. */
  async restore(): Promise<void> {
    try {
      const saved = readFields(await this.#store.get(this.#key));
      if (saved && !this.#edited) this.#fields = saved;
    } catch {
      // Nothing to restore when the store cannot be read; typing still works.
    }
  }

  set(change: Partial<ComposerFields>): void {
    this.#edited = true;
    this.#fields = { ...this.#fields, ...change };
    this.#scheduleSave();
  }

  /**
   * Hand the draft over: it is cleared now, as people expect of a chat box, and comes back if `deliver`
   * says the message was not taken (ahead of anything typed meanwhile, which is kept too).
   */
  async submit(deliver: (fields: ComposerFields) => Promise<boolean>): Promise<boolean> {
    const fields = this.#fields;
    this.#fields = EMPTY;
    this.#scheduleSave();
    const taken = await deliver(fields);
    if (!taken) {
      const typed = this.#fields.text;
      this.#fields = typed === "" ? fields : { ...this.#fields, text: `${fields.text}\n${typed}` };
      this.#scheduleSave();
    }
    return taken;
  }

  /** Save now (the page is being hidden or closed). */
  flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const fields = this.#fields;
    const empty = fields.text === "" && fields.output === "";
    return (empty ? this.#store.delete(this.#key) : this.#store.set(this.#key, fields)).catch(
      () => undefined,
    );
  }

  #scheduleSave(): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.flush(), SAVE_DELAY_MS);
  }
}

function readFields(raw: unknown): ComposerFields | undefined {
  if (!isObject(raw) || typeof raw.text !== "string") return undefined;
  return {
    text: raw.text,
    output: typeof raw.output === "string" ? raw.output : "",
    exitCode: typeof raw.exitCode === "string" ? raw.exitCode : "0",
  };
}
