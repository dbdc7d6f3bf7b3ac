import type { ThinkingLevel } from "@earendil-works/pi-agent-core";
import type { StopReason } from "@earendil-works/pi-ai";

/**
 * Lists of pi's string unions that the playground needs at run time. pi-ai exports these only as types,
 * so each list is written once here and checked against pi's type: a value pi adds or removes makes the
 * build fail instead of silently disagreeing.
 */

type Exhaustive<Union, List extends readonly Union[]> = [Exclude<Union, List[number]>] extends [never]
  ? List
  : never;

const exhaustive =
  <Union>() =>
  <const List extends readonly Union[]>(list: Exhaustive<Union, List>): List =>
    list;

/** Every thinking level, weakest first ("off" included), as pi orders them. */
export const THINKING_LEVELS = exhaustive<ThinkingLevel>()([
  "off",
  "minimal",
  "low",
  "medium",
  "high",
  "xhigh",
  "max",
]);

/** Why an assistant reply ended. */
export const STOP_REASONS = exhaustive<StopReason>()([
  "stop",
  "length",
  "toolUse",
  "error",
  "aborted",
  "pending",
  "deferred",
]);

export function isThinkingLevel(value: unknown): value is ThinkingLevel {
  return typeof value === "string" && (THINKING_LEVELS as readonly string[]).includes(value);
}
