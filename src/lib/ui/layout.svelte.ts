import { createContext } from "svelte";
import type { FlagStore } from "./flags.ts";

export type PaneTab = "chat" | "inspector";

/** Below this width the sidebar becomes a drawer and chat and inspector become tabs. */
export const NARROW_QUERY = "(max-width: 900px)";

const SIDEBAR_KEY = "pi-playground:sessions";
const INSPECTOR_KEY = "pi-playground:inspector";

/**
 * Which panes are shown. Wide screens show the sessions sidebar, the chat and the inspector side by side
 * (sidebar and inspector can be hidden, and that is remembered). Narrow screens show one pane at a time:
 * chat or inspector as tabs, and the sessions in a drawer that starts closed.
 */
export class Layout {
  readonly #isNarrow: () => boolean;
  readonly #flags: FlagStore;
  #sidebarOpen = $state(true);
  #inspectorOpen = $state(false);
  #drawerOpen = $state(false);
  #tab = $state<PaneTab>("chat");

  constructor(isNarrow: () => boolean, flags: FlagStore) {
    this.#isNarrow = isNarrow;
    this.#flags = flags;
    this.#sidebarOpen = flags.read(SIDEBAR_KEY, true);
    this.#inspectorOpen = flags.read(INSPECTOR_KEY, false);
  }

  get narrow(): boolean {
    return this.#isNarrow();
  }
  /** The sessions list beside the chat (wide screens). */
  get sidebarShown(): boolean {
    return !this.narrow && this.#sidebarOpen;
  }
  /** The sessions list as a modal drawer (narrow screens). */
  get drawerOpen(): boolean {
    return this.narrow && this.#drawerOpen;
  }
  /** Whether the sessions are on screen, in whichever form. */
  get sessionsShown(): boolean {
    return this.sidebarShown || this.drawerOpen;
  }
  get chatShown(): boolean {
    return !this.narrow || this.#tab === "chat";
  }
  get inspectorShown(): boolean {
    return this.narrow ? this.#tab === "inspector" : this.#inspectorOpen;
  }
  get tab(): PaneTab {
    return this.#tab;
  }

  toggleSessions(): void {
    if (this.narrow) {
      this.#drawerOpen = !this.#drawerOpen;
      return;
    }
    this.#sidebarOpen = !this.#sidebarOpen;
    this.#flags.write(SIDEBAR_KEY, this.#sidebarOpen);
  }

  closeDrawer(): void {
    this.#drawerOpen = false;
  }

  toggleInspector(): void {
    if (this.narrow) this.#tab = this.#tab === "inspector" ? "chat" : "inspector";
    else this.#setInspectorOpen(!this.#inspectorOpen);
  }

  /** Bring the inspector on screen (opening it, or switching to its tab). */
  showInspector(): void {
    if (this.narrow) this.#tab = "inspector";
    else this.#setInspectorOpen(true);
  }

  /** Bring the chat on screen (on narrow screens it shares the space with the inspector). */
  showChat(): void {
    this.#tab = "chat";
  }

  selectTab(tab: PaneTab): void {
    this.#tab = tab;
  }

  #setInspectorOpen(open: boolean): void {
    this.#inspectorOpen = open;
    this.#flags.write(INSPECTOR_KEY, open);
  }
}

export const [getLayout, setLayout] = createContext<Layout>();
