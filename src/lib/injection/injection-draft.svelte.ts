import { SvelteSet } from "svelte/reactivity";
import type { Delivery } from "../agent/chat-session.svelte.ts";
import type { FieldError } from "../messages/validate.ts";
import {
  buildFromForm,
  buildFromJson,
  initialValues,
  type BuildResult,
  type FormValues,
  type InjectKind,
} from "./forms.ts";

export type DraftTab = "form" | "json";

/**
 * The message being written in the injection dialog. Errors are computed all the time (the Inject button
 * needs them) but shown per field only once the person has touched it, or tried to inject.
 */
export class InjectionDraft {
  #kind = $state<InjectKind>("notification");
  #values = $state.raw<FormValues>(initialValues("notification"));
  #tab = $state<DraftTab>("form");
  #json = $state("");
  #delivery = $state<Delivery | undefined>(undefined);
  readonly #touched = new SvelteSet<string>();
  #attempted = $state(false);

  readonly result: BuildResult = $derived(
    this.#tab === "form" ? buildFromForm(this.#kind, this.#values) : buildFromJson(this.#json),
  );

  get kind(): InjectKind {
    return this.#kind;
  }
  get values(): FormValues {
    return this.#values;
  }
  get tab(): DraftTab {
    return this.#tab;
  }
  get json(): string {
    return this.#json;
  }
  get delivery(): Delivery | undefined {
    return this.#delivery;
  }

  setKind(kind: InjectKind): void {
    this.#kind = kind;
    this.#values = initialValues(kind);
    this.#touched.clear();
    this.#attempted = false;
  }

  setValue(name: string, value: string | boolean): void {
    this.#values = { ...this.#values, [name]: value };
    this.#touched.add(name);
  }

  setTab(tab: DraftTab): void {
    // Switching to JSON starts from the form's message, so experts can tweak what the form built.
    if (tab === "json" && this.#tab === "form" && this.#json.trim() === "" && this.result.ok) {
      this.#json = JSON.stringify(this.result.message, null, 2);
    }
    this.#tab = tab;
  }

  setJson(source: string): void {
    this.#json = source;
    this.#touched.add("json");
  }

  setDelivery(delivery: Delivery): void {
    this.#delivery = delivery;
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

  reset(): void {
    this.#values = initialValues(this.#kind);
    this.#json = "";
    this.#touched.clear();
    this.#attempted = false;
  }
}
