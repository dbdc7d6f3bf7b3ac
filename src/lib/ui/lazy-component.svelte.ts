/**
 * A component whose code is loaded on first use (or ahead of it, while the page is idle) and, once
 * loaded, rendered at once: `{#await import(…)}` would wait a task even for code already there, so
 * opening a panel would lay out the page twice, once without the panel's content and once with it.
 */
export class LazyComponent<Component> {
  readonly #load: () => Promise<{ default: Component }>;
  #component = $state.raw<Component | undefined>(undefined);
  #error = $state.raw<string | undefined>(undefined);
  #loading: Promise<void> | undefined;

  constructor(load: () => Promise<{ default: Component }>) {
    this.#load = load;
  }

  /** The component, once its code has loaded. */
  get component(): Component | undefined {
    return this.#component;
  }

  /** Why its code could not be loaded (the network, a deployment that replaced it). */
  get error(): string | undefined {
    return this.#error;
  }

  /** Load its code unless it is loaded or loading; after a failure, the next call tries again. */
  load(): Promise<void> {
    this.#loading ??= this.#load().then(
      (module) => {
        this.#component = module.default;
        this.#error = undefined;
      },
      (error: unknown) => {
        this.#loading = undefined;
        this.#error = error instanceof Error ? error.message : String(error);
      },
    );
    return this.#loading;
  }
}
