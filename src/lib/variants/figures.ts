import type { FigureName, TurnFigures } from "../agent/variant-sets/variant-set.ts";
import { formatCost, formatDuration, formatTokens } from "../ui/format.ts";

/** How the comparison names each figure, in the order it shows them. */
export const FIGURE_LABELS: Record<FigureName, string> = {
  output: "Output tokens",
  input: "Input tokens",
  cacheRead: "Cache read",
  cacheWrite: "Cache write",
  cost: "Cost",
  firstTokenMs: "First token",
  durationMs: "Duration",
  payloadBytes: "Payload",
};

export const FIGURE_ORDER: readonly FigureName[] = [
  "output",
  "input",
  "cacheRead",
  "cacheWrite",
  "cost",
  "firstTokenMs",
  "durationMs",
  "payloadBytes",
];

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} kB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** A figure as the comparison shows it; "–" where the column has none (no first token, no payload). */
export function figureText(figures: TurnFigures | undefined, name: FigureName): string {
  const value = figures?.[name];
  if (value === undefined) return "–";
  switch (name) {
    case "input":
    case "cacheRead":
    case "cacheWrite":
    case "output":
      return formatTokens(value);
    case "cost":
      return formatCost(value);
    case "firstTokenMs":
    case "durationMs":
      return formatDuration(value);
    case "payloadBytes":
      return formatBytes(value);
  }
}
