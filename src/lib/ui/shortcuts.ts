/** What a keyboard shortcut does; the app maps each to an action on its state. */
export type ShortcutAction =
  "help" | "composer" | "inspector" | "facts" | "search" | "inject" | "sessions" | "approval" | "stop";

/**
 * Single characters typed without modifiers, by `KeyboardEvent.key`: only outside text fields, and they
 * can be turned off. The sheet that lists them (shortcut-sheet.ts) loads with the `?` dialog.
 */
export const SINGLE_KEYS: Readonly<Record<string, ShortcutAction>> = {
  "?": "help",
  "/": "composer",
  i: "inspector",
  f: "facts",
  F: "search",
  n: "inject",
  s: "sessions",
  a: "approval",
};

export interface KeyContext {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  /** The focus is in a text field: typed characters are text, not commands. */
  inTextField: boolean;
  /** The focus is in a dialog or menu, whose own keys (Escape closes it) come first. */
  inOverlay: boolean;
  running: boolean;
  singleKeysEnabled: boolean;
}

/** The shortcut a key press triggers, if any. */
export function shortcutFor(context: KeyContext): ShortcutAction | undefined {
  if (context.ctrlKey || context.metaKey || context.altKey || context.inOverlay) return undefined;
  if (context.key === "Escape") return context.running ? "stop" : undefined;
  if (context.inTextField || !context.singleKeysEnabled) return undefined;
  return Object.hasOwn(SINGLE_KEYS, context.key) ? SINGLE_KEYS[context.key] : undefined;
}
