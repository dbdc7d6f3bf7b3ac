/** What `MediaMatch` needs of `window.matchMedia`; tests pass a fake. */
export type MatchMedia = (query: string) => Pick<MediaQueryList, "matches" | "addEventListener">;

/**
 * Whether a media query matches, kept current for as long as the page lives (the app's layout reads it
 * from the first render on). Svelte's `MediaQuery` does the same, but with `svelte/reactivity` imported at
 * start the build kept its reactive Set in the page's first chunk too, unused (0.7 kB gzip with MediaQuery
 * and the Map; measured with `npm run test:budget`).
 */
export class MediaMatch {
  #matches = $state(false);

  constructor(query: string, fallback: boolean, matchMedia: MatchMedia | undefined = globalThis.matchMedia) {
    const list = typeof matchMedia === "function" ? matchMedia(query) : undefined;
    this.#matches = list?.matches ?? fallback;
    list?.addEventListener("change", (event) => (this.#matches = event.matches));
  }

  get current(): boolean {
    return this.#matches;
  }
}
