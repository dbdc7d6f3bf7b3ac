import { parseThemeChoice, THEME_KEY, themeAttribute, type ThemeChoice } from "./theme.ts";

/** Where the choice is kept and shown: the browser's storage and the document's root element. */
export interface ThemeHost {
  storage: Pick<Storage, "getItem" | "setItem" | "removeItem"> | undefined;
  root: { dataset: DOMStringMap };
}

/** The person's theme choice (System, Light or Dark), remembered across visits and applied to the page. */
export class ThemePreference {
  readonly #host: ThemeHost;
  #choice = $state<ThemeChoice>("system");

  constructor(host: ThemeHost) {
    this.#host = host;
    this.#choice = parseThemeChoice(readStorage(host, THEME_KEY));
  }

  get choice(): ThemeChoice {
    return this.#choice;
  }

  choose(choice: ThemeChoice): void {
    this.#choice = choice;
    const attribute = themeAttribute(choice);
    if (attribute) this.#host.root.dataset.theme = attribute;
    else delete this.#host.root.dataset.theme;
    try {
      if (choice === "system") this.#host.storage?.removeItem(THEME_KEY);
      else this.#host.storage?.setItem(THEME_KEY, choice);
    } catch {
      // Storage refused (private mode, quota): the choice holds for this page only.
    }
  }
}

function readStorage(host: ThemeHost, key: string): string | null {
  try {
    return host.storage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}
