import type { ShortcutAction } from "./shortcuts.ts";

export interface SheetRow {
  /** The keys as shown. */
  keys: string[];
  /** The action, for the keys handled by the app (list keys are handled by the lists themselves). */
  action?: ShortcutAction;
  description: string;
  /** A single character: turned off with the single-key switch. */
  singleKey?: boolean;
}

/** What the `?` sheet lists, in order. */
export const SHEET: readonly SheetRow[] = [
  { keys: ["?"], action: "help", description: "Show these shortcuts", singleKey: true },
  { keys: ["/"], action: "composer", description: "Write a message (focus the composer)", singleKey: true },
  { keys: ["i"], action: "inspector", description: "Show or hide the inspector", singleKey: true },
  { keys: ["f"], action: "facts", description: "Go to the facts list in the inspector", singleKey: true },
  {
    keys: ["F"],
    action: "search",
    description:
      "Search the facts or the calls in the inspector (Shift+F): Enter next match, Shift+Enter previous, Esc clears",
    singleKey: true,
  },
  { keys: ["n"], action: "inject", description: "Inject a message", singleKey: true },
  {
    keys: ["s"],
    action: "sessions",
    description: "Show the sessions or fold them to the rail",
    singleKey: true,
  },
  { keys: ["a"], action: "approval", description: "Go to the request waiting for approval", singleKey: true },
  { keys: ["Esc"], action: "stop", description: "Stop the run (while the agent is working)" },
  { keys: ["↑", "↓", "j", "k"], description: "In a list: move between facts or model messages" },
  { keys: ["Home", "End"], description: "In a list: first or last entry" },
  { keys: ["Enter"], description: "In a list: select the entry and show its detail and its chat message" },
];
