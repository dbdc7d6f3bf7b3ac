/** A first thing to try in an empty session; each one shows a different part of pi's message flow. */
export type Starter =
  | { kind: "prompt"; label: string; text: string; shows: string }
  | { kind: "notification"; label: string; text: string; shows: string };

export const STARTERS: readonly Starter[] = [
  {
    kind: "prompt",
    label: "What time is it?",
    text: "What time is it?",
    shows: "a tool call: current_time runs in your browser",
  },
  {
    kind: "prompt",
    label: "What is 12 * (3 + 4)?",
    text: "What is 12 * (3 + 4)?",
    shows: "arithmetic through the calculate tool",
  },
  {
    kind: "prompt",
    label: "Save a note: water the plants",
    text: "Save a note: water the plants",
    shows: "a tool that waits for your approval",
  },
  {
    kind: "prompt",
    label: "Show context",
    text: "Show context",
    shows: "every message the model received, as text",
  },
  {
    kind: "notification",
    label: "Inject a notification",
    text: "Deploy finished: version 2.4.0 is live",
    shows: "a fact people see and the model does not",
  },
];
