import type { describeErrors, validateMessage } from "./validate.ts";
import type { validateEntry } from "./entry-validate.ts";

/**
 * The validators of stored and imported session data, compiled from pi's schemas with pi's own schema
 * package. They are a chunk of their own, loaded while storage opens (both are needed before a session
 * can be shown, and neither waits for the other), so the page's first script does not carry them.
 */
export interface Validators {
  validateMessage: typeof validateMessage;
  validateEntry: typeof validateEntry;
  describeErrors: typeof describeErrors;
}

let loaded: Validators | undefined;
let loading: Promise<Validators> | undefined;

/** Load the validators (once; later calls share the first). */
export function loadValidators(): Promise<Validators> {
  loading ??= Promise.all([import("./validate.ts"), import("./entry-validate.ts")]).then(
    ([messages, entries]) =>
      (loaded = {
        validateMessage: messages.validateMessage,
        validateEntry: entries.validateEntry,
        describeErrors: messages.describeErrors,
      }),
  );
  // A failed load may be retried by the next caller.
  loading.catch(() => (loading = undefined));
  return loading;
}

/** The loaded validators. Whatever reads session data first awaits `loadValidators()` (the stores do). */
export function validators(): Validators {
  if (!loaded)
    throw new Error("Session data was read before its validators loaded: await loadValidators() first.");
  return loaded;
}
