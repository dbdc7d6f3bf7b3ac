/** Small formatting helpers shared by the chat and the inspector. */

import { countOf } from "../../shared/count-of.ts";
import { formatJsonBounded } from "./bounded-json.ts";

// Formatters are built once: building one per call costs a fraction of a millisecond, per row of a list.
const COUNT = new Intl.NumberFormat("en-US");
const TIME = new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", second: "2-digit" });
const DATE_TIME = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short" });

export function formatTokens(count: number): string {
  return count >= 10_000 ? `${(count / 1000).toFixed(1)}k` : COUNT.format(count);
}

export function formatCost(dollars: number): string {
  if (dollars === 0) return "$0";
  if (dollars < 0.01) return `$${dollars.toFixed(4)}`;
  return `$${dollars.toFixed(2)}`;
}

/** "850 ms", "1.25 s", "12.5 s". */
export function formatDuration(ms: number): string {
  return ms < 1_000 ? `${Math.round(ms)} ms` : `${(ms / 1_000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

export function formatTime(timestamp: number): string {
  if (!timestamp) return "";
  return TIME.format(timestamp);
}

export function formatDateTime(timestamp: number): string {
  if (!timestamp) return "";
  return DATE_TIME.format(timestamp);
}

/** Any value as indented JSON for display: bounded in depth and length, and it never throws. */
export function formatJson(value: unknown): string {
  return formatJsonBounded(value);
}

/** "just now", "5 min ago", "3 h ago", "2 days ago", then a date. */
export function relativeTime(timestamp: number, now = Date.now()): string {
  const seconds = Math.round((now - timestamp) / 1000);
  if (seconds < 45) return "just now";
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.round(hours / 24);
  if (days < 7) return `${countOf(days, "day")} ago`;
  return formatDateTime(timestamp);
}
