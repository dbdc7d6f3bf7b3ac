import type { AgentMessage } from "@earendil-works/pi-agent-core";
import { SvelteSet } from "svelte/reactivity";
import { isObject } from "../../shared/is-object.ts";
import type { Delivery } from "../agent/message-delivery.ts";
import type { FieldError } from "../messages/validate.ts";
import type { KeyValueStore } from "../storage/kv.ts";
import { applicableDelivery } from "./delivery.ts";
import { buildFromForm, type BuildResult } from "./form-message.ts";
import { initialValues, INJECT_KINDS, type FormValues, type InjectKind } from "./forms.ts";
import { buildFromJson, formFromJson, jsonFromForm } from "./json-tab.ts";

export type DraftTab = "form" | "json";

/** Which editor the message comes from: the one the person edited last. */
type Source = "form" | "json";

/** What is kept of a draft between visits (per session, in the key-value store). */
interface SavedDraft {
  kind: InjectKind;
  values: Partial<Record<InjectKind, FormValues>>;
  kept: Partial<Record<InjectKind, Record<string, unknown>>>;
  json: string;
  source: Source;
  tab: DraftTab;
}

const SAVE_DELAY_MS = 250;
/** The type a new draft starts with; a draft of it with nothing written is not worth keeping. */
const FIRST_KIND: InjectKind = "notification";

/**
 * The message being written in the injection dialog: one draft behind the Form and JSON tabs. Editing
 * the form rewrites the JSON from it; editing the JSON fills the form from it (its type follows the
 * JSON's role), keeping fields the form does not show beside it. When the JSON says more than the form
 * can show, the form says so instead of showing something else, and only an explicit choice drops
 * those edits. So both tabs always show the message that Inject sends.
 *
 * The delivery is the person's choice: when the run state changes so that it no longer applies (a
 * follow-up chosen during a run that has ended), it is not replaced by another; they choose again.
 *
 * Errors are computed all the time (the Inject button needs them) but shown per field only once the
 * person has touched it, or tried to inject.
 */
export class InjectionDraft {
  readonly #store: KeyValueStore;
  readonly #key: string;
  #kind = $state<InjectKind>(FIRST_KIND);
  #values = $state.raw<Partial<Record<InjectKind, FormValues>>>({});
  #kept = $state.raw<Partial<Record<InjectKind, Record<string, unknown>>>>({});
  #json = $state("");
  #source = $state<Source>("form");
  #tab = $state<DraftTab>("form");
  #delivery = $state<Delivery | undefined>(undefined);
  readonly #touched = new SvelteSet<string>();
  #attempted = $state(false);
  #edited = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** What the next save writes: the draft as of its last change, or "empty" to forget it. */
  #pending: SavedDraft | "empty" | undefined;

  constructor(store: KeyValueStore, sessionId: string) {
    this.#store = store;
    this.#key = `inject:${sessionId}`;
  }

  /** The form's message as JSON: what the JSON tab shows while the form leads. */
  readonly #formJson = $derived(jsonFromForm(this.#kind, this.values, this.#kept[this.#kind]));

  /** The JSON as the form reads it, while the JSON is where the message comes from. */
  readonly #read = $derived(this.#source === "json" ? formFromJson(this.#json) : undefined);

  readonly result: BuildResult = $derived(
    this.#source === "form"
      ? buildFromForm(this.#kind, this.values, Date.now(), this.#kept[this.#kind])
      : buildFromJson(this.#json),
  );

  /** The type shown in the Type select: the JSON's role when the JSON leads, undefined when it names none. */
  get kind(): InjectKind | undefined {
    if (this.#read && !this.#read.ok) return this.#read.kind;
    return this.#kind;
  }
  /** The type of the form (what it shows when it can show the message). */
  get formKind(): InjectKind {
    return this.#kind;
  }
  get values(): FormValues {
    return this.#values[this.#kind] ?? initialValues(this.#kind);
  }
  /** Fields read from the JSON that the form does not show, kept in the message. */
  get kept(): readonly string[] {
    return Object.keys(this.#kept[this.#kind] ?? {});
  }
  /** Why the form cannot show the message the JSON tab holds (undefined when it can). */
  get formCannotShow(): string | undefined {
    return this.#read && !this.#read.ok ? this.#read.reason : undefined;
  }
  get tab(): DraftTab {
    return this.#tab;
  }
  /** What the JSON tab shows: the text written there, or the form's message while the form leads. */
  get json(): string {
    return this.#source === "json" ? this.#json : this.#formJson;
  }

  /** The delivery the person chose, if it applies to the session as it is now; else they choose again. */
  deliveryFor(running: boolean): Delivery | undefined {
    return applicableDelivery(this.#delivery, running);
  }
  /** What was chosen, whether or not it still applies. */
  get chosenDelivery(): Delivery | undefined {
    return this.#delivery;
  }

  /** Bring back what was written before the dialog closed or the page reloaded, unless editing began. */
  async restore(): Promise<void> {
    try {
      const saved = readSaved(await this.#store.get(this.#key));
      if (!saved || this.#edited) return;
      this.#kind = saved.kind;
      this.#values = saved.values;
      this.#kept = saved.kept;
      this.#json = saved.json;
      this.#source = saved.source;
      this.#tab = saved.tab;
    } catch {
      // Nothing to restore when the store cannot be read; writing still works.
    }
  }

  /** Another type: the form of that type, as it was left (a type's values are kept when switching away). */
  setKind(kind: InjectKind): void {
    // The select is disabled then; a JSON the form cannot show is never replaced by switching types.
    if (this.formCannotShow) return;
    this.#kind = kind;
    this.#attempted = false;
    this.#fromForm();
  }

  setValue(name: string, value: string | boolean): void {
    this.#values = { ...this.#values, [this.#kind]: { ...this.values, [name]: value } };
    this.#touched.add(name);
    this.#fromForm();
  }

  setTab(tab: DraftTab): void {
    this.#tab = tab;
    this.#changed();
  }

  setJson(source: string): void {
    this.#json = source;
    this.#source = "json";
    this.#touched.add("json");
    const read = formFromJson(source);
    if (read.ok) {
      this.#kind = read.kind;
      this.#values = { ...this.#values, [read.kind]: read.values };
      this.#kept = { ...this.#kept, [read.kind]: read.kept };
    }
    this.#changed();
  }

  /**
   * Drop the JSON edits the form cannot show, and go on from the form as it was: the one way such edits
   * are let go, chosen by the person.
   */
  discardJsonEdits(): void {
    this.#fromForm();
  }

  setDelivery(delivery: Delivery): void {
    this.#delivery = delivery;
  }

  /** Choose a delivery for the person once, when the dialog opens: visible, and theirs to change. */
  offerDelivery(delivery: Delivery): void {
    if (this.#delivery === undefined) this.#delivery = delivery;
  }

  /** Errors to show for one form field (or, on the JSON tab, all of them under the text box). */
  errorsFor(field: string): FieldError[] {
    if (this.result.ok) return [];
    const visible = this.#attempted || this.#touched.has(this.#tab === "json" ? "json" : field);
    if (!visible) return [];
    if (this.#tab === "json") return this.result.errors;
    return this.result.errors.filter(
      (error) =>
        error.field === field || error.field.startsWith(`${field}.`) || error.field.startsWith(`${field}[`),
    );
  }

  markAttempted(): void {
    this.#attempted = true;
  }

  /** The message to inject now, with the time of injection unless a time was written in the JSON. */
  take(): AgentMessage | undefined {
    const built =
      this.#source === "form"
        ? buildFromForm(this.#kind, this.values, Date.now(), this.#kept[this.#kind])
        : buildFromJson(this.#json);
    return built.ok ? built.message : undefined;
  }

  /** The message was injected: start the next one of the same type from an empty form. */
  reset(): void {
    const rest = { ...this.#values };
    delete rest[this.#kind];
    this.#values = rest;
    const kept = { ...this.#kept };
    delete kept[this.#kind];
    this.#kept = kept;
    this.#touched.clear();
    this.#attempted = false;
    this.#fromForm();
  }

  /** Save now (the dialog closes, or the page is being hidden). */
  flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const pending = this.#pending;
    this.#pending = undefined;
    if (pending === undefined) return Promise.resolve();
    return (pending === "empty" ? this.#store.delete(this.#key) : this.#store.set(this.#key, pending)).catch(
      () => undefined,
    );
  }

  /** The form leads: the JSON tab shows its message. */
  #fromForm(): void {
    this.#source = "form";
    this.#json = "";
    this.#changed();
  }

  #changed(): void {
    this.#edited = true;
    // Taken now rather than when saving: a save from a teardown would read the state as it was before
    // the change that closed the dialog (Svelte gives teardowns the values they started from).
    const empty =
      this.#source === "form" &&
      this.#kind === FIRST_KIND &&
      Object.keys(this.#values).length === 0 &&
      Object.keys(this.#kept).length === 0;
    this.#pending = empty
      ? "empty"
      : {
          kind: this.#kind,
          values: this.#values,
          kept: this.#kept,
          json: this.#json,
          source: this.#source,
          tab: this.#tab,
        };
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.flush(), SAVE_DELAY_MS);
  }
}

function readSaved(raw: unknown): SavedDraft | undefined {
  if (!isObject(raw)) return undefined;
  const kind = INJECT_KINDS.find((candidate) => candidate === raw.kind);
  if (!kind || typeof raw.json !== "string" || !isObject(raw.values) || !isObject(raw.kept)) return undefined;
  const values: Partial<Record<InjectKind, FormValues>> = {};
  const kept: Partial<Record<InjectKind, Record<string, unknown>>> = {};
  for (const candidate of INJECT_KINDS) {
    const stored = raw.values[candidate];
    if (isObject(stored)) {
      const fields: FormValues = {};
      for (const [name, value] of Object.entries(stored))
        if (typeof value === "string" || typeof value === "boolean") fields[name] = value;
      values[candidate] = fields;
    }
    const storedKept = raw.kept[candidate];
    if (isObject(storedKept)) kept[candidate] = storedKept;
  }
  return {
    kind,
    values,
    kept,
    json: raw.json,
    source: raw.source === "json" ? "json" : "form",
    tab: raw.tab === "json" ? "json" : "form",
  };
}
