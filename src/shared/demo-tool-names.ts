/**
 * The demo tools' names. The page declares the tools and the offline mirror calls them by name, so both
 * take the names from here: a rename on one side cannot silently stop the mirror from calling a tool.
 */
export const DEMO_TOOL_NAMES = {
  time: "current_time",
  arithmetic: "calculate",
  note: "save_note",
} as const;
