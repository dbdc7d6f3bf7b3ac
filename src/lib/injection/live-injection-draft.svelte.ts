import type { DeliverAs, LiveInjection } from "../../shared/live/live-protocol.ts";
import type { FieldError } from "../messages/validate.ts";
import { initialValues, type FormValues, type InjectKind } from "./forms.ts";
import { liveInjection, type LiveInjectionResult } from "./live-injection.ts";

/**
 * The message being written for a live pi: the injection dialog's custom-message form, its errors shown
 * once a field was touched or sending was tried, and the way pi should deliver it.
 */
export class LiveInjectionDraft {
  readonly formKind: InjectKind = "custom";
  #values = $state.raw<FormValues>(initialValues("custom"));
  #touched = $state.raw<ReadonlySet<string>>(new Set());
  #attempted = $state(false);
  #deliverAs = $state<DeliverAs>("followUp");
  readonly #result = $derived<LiveInjectionResult>(liveInjection(this.#values));

  get values(): FormValues {
    return this.#values;
  }

  get result(): LiveInjectionResult {
    return this.#result;
  }

  get deliverAs(): DeliverAs {
    return this.#deliverAs;
  }

  setDeliverAs(how: DeliverAs): void {
    this.#deliverAs = how;
  }

  setValue(name: string, value: string | boolean): void {
    this.#values = { ...this.#values, [name]: value };
    this.#touched = new Set([...this.#touched, name]);
  }

  errorsFor(field: string): FieldError[] {
    const result = this.#result;
    if (result.ok || !(this.#attempted || this.#touched.has(field))) return [];
    return result.errors.filter(
      (error) =>
        error.field === field || error.field.startsWith(`${field}.`) || error.field.startsWith(`${field}[`),
    );
  }

  /** The injection to send, or undefined (and every error shown) when the form is not complete. */
  take(): LiveInjection | undefined {
    this.#attempted = true;
    return this.#result.ok ? this.#result.injection : undefined;
  }

  /** Sent: the content goes, the type and the way of delivery stay for the next one. */
  sent(): void {
    const { customType, display } = this.#values;
    this.#values = { ...initialValues("custom"), customType: customType ?? "", display: display ?? true };
    this.#touched = new Set();
    this.#attempted = false;
  }
}
