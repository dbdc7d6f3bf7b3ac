import type { AnyMessageKind, Fact } from "./kind.ts";

type Registry = typeof import("./index.ts");

let loaded: Registry | undefined;
let loading: Promise<Registry> | undefined;

/**
 * Load the message kinds (once; later calls share the first). They are a chunk of their own, loaded while
 * storage opens, like the validators: a session cannot be shown before both, and the page's first script
 * carries neither. Code that loads with the page reads them through `loadedKindOf`; everything loaded
 * later imports `./index.ts` itself.
 */
export function loadMessageKinds(): Promise<Registry> {
  loading ??= import("./index.ts").then((registry) => (loaded = registry));
  // A failed load may be retried by the next caller.
  loading.catch(() => (loading = undefined));
  return loading;
}

/** The kind of a fact, once the kinds are loaded (whatever shows a session awaits `loadMessageKinds()`). */
export function loadedKindOf(message: Fact): AnyMessageKind {
  if (!loaded)
    throw new Error("A fact was read before the message kinds loaded: await loadMessageKinds() first.");
  return loaded.kindOf(message);
}
