import { createContext } from "svelte";
import type { FlagStore } from "./flags.ts";
import { INSPECTOR_PANE, SESSIONS_PANE, clampSize, readSize, writeSize } from "./pane-sizes.ts";

export type PaneTab = "chat" | "inspector";

/** Below this width the sidebar becomes a drawer and chat and inspector become tabs. */
export const NARROW_QUERY = "(max-width: 900px)";

const SIDEBAR_KEY = "pi-playground:sessions";
const INSPECTOR_KEY = "pi-playground:inspector";
const SESSIONS_WIDTH_KEY = "pi-playground:sessions-width";
const INSPECTOR_SHARE_KEY = "pi-playground:inspector-share";

type SizeStorage = Pick<Storage, "getItem" | "setItem">;

/**
 * Which panes are shown. Wide screens show the sessions sidebar, the chat and the inspector side by side
 * (the sidebar folds to a narrow rail of icons and the inspector can be hidden, and that is remembered). Narrow screens show one pane at a time:
 * chat or inspector as tabs, and the sessions in a drawer that starts closed.
 */
export class Layout {
  readonly #isNarrow: () => boolean;
  readonly #flags: FlagStore;
  #sidebarOpen = $state(true);
  #inspectorOpen = $state(false);
  #drawerOpen = $state(false);
  #tab = $state<PaneTab>("chat");
  readonly #sizes: SizeStorage | undefined;
  #sessionsWidth = $state(SESSIONS_PANE.initial);
  #inspectorShare = $state(INSPECTOR_PANE.initial);
  #inspectorMaximised = $state(false);

  constructor(isNarrow: () => boolean, flags: FlagStore, sizes?: SizeStorage) {
    this.#isNarrow = isNarrow;
    this.#flags = flags;
    this.#sizes = sizes;
    this.#sidebarOpen = flags.read(SIDEBAR_KEY, true);
    this.#inspectorOpen = flags.read(INSPECTOR_KEY, false);
    this.#sessionsWidth = readSize(sizes, SESSIONS_WIDTH_KEY, SESSIONS_PANE);
    this.#inspectorShare = readSize(sizes, INSPECTOR_SHARE_KEY, INSPECTOR_PANE);
  }

  /** The sessions list's width in CSS pixels (wide screens), remembered. */
  get sessionsWidth(): number {
    return this.#sessionsWidth;
  }
  /** The inspector's share, in percent, of the room beside the sessions list (wide screens), remembered. */
  get inspectorShare(): number {
    return this.#inspectorShare;
  }
  /** The inspector takes the whole width (wide screens): the sessions and the chat step aside. */
  get inspectorMaximised(): boolean {
    return !this.narrow && this.#inspectorOpen && this.#inspectorMaximised;
  }

  resizeSessions(width: number): void {
    this.#sessionsWidth = clampSize(SESSIONS_PANE, width);
    writeSize(this.#sizes, SESSIONS_WIDTH_KEY, this.#sessionsWidth);
  }

  resizeInspector(share: number): void {
    this.#inspectorShare = clampSize(INSPECTOR_PANE, share);
    writeSize(this.#sizes, INSPECTOR_SHARE_KEY, this.#inspectorShare);
  }

  /** Give the inspector the whole width, or give it back. */
  toggleMaximised(): void {
    this.#inspectorMaximised = !this.#inspectorMaximised;
  }

  get narrow(): boolean {
    return this.#isNarrow();
  }
  /** The sessions list beside the chat (wide screens). */
  get sidebarShown(): boolean {
    return !this.narrow && this.#sidebarOpen && !this.inspectorMaximised;
  }
  /**
   * The sessions folded to a rail of icons (wide screens, sessions hidden). The inspector at the whole
   * width has no rail beside it: it gives the width back when the sessions are asked for.
   */
  get railShown(): boolean {
    return !this.narrow && !this.#sidebarOpen && !this.inspectorMaximised;
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
    return this.narrow ? this.#tab === "chat" : !this.inspectorMaximised;
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
    // Asking for the sessions while the inspector has the whole width gives the width back first.
    if (this.inspectorMaximised) {
      this.#inspectorMaximised = false;
      if (this.#sidebarOpen) return;
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
    this.#inspectorMaximised = false;
  }

  selectTab(tab: PaneTab): void {
    this.#tab = tab;
  }

  #setInspectorOpen(open: boolean): void {
    this.#inspectorOpen = open;
    if (!open) this.#inspectorMaximised = false;
    this.#flags.write(INSPECTOR_KEY, open);
  }
}

export const [getLayout, setLayout] = createContext<Layout>();
