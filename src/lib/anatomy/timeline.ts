import type { AgentMessage } from "@earendil-works/pi-agent-core";
import type { SessionEntry } from "../messages/entries.ts";
import { INJECTED_API } from "../messages/factories.ts";
import { inputTotal } from "./composition.ts";
import type { Change } from "./call-changes.ts";
import type { CallAnatomy } from "./session-anatomy.ts";

/**
 * The timeline: context size of every call against the model's window, what changed between calls,
 * cost per call and so far. Sessions from before calls were recorded still have their replies, and each
 * reply carries the usage of the call that made it: their timeline comes from those.
 */
export interface TimelinePoint {
  /** 1-based call number. */
  number: number;
  /** The call's sequence number; undefined for points read from replies. */
  seq: number | undefined;
  tokens: number | undefined;
  basis: "usage" | "estimate" | "unknown";
  /** Input read from the provider's prompt cache (0 when none, or unknown). */
  cached: number;
  window: number | undefined;
  cost: number;
  cumulativeCost: number;
  changes: Change[];
  label: string;
}

export function pointsOfCalls(calls: readonly CallAnatomy[]): TimelinePoint[] {
  return calls.map((call, position) => ({
    number: position + 1,
    seq: call.seq,
    tokens: call.contextTokens,
    basis: call.basis,
    cached: call.cacheRead,
    window: call.window,
    cost: call.cost,
    cumulativeCost: call.cumulativeCost,
    changes: call.changes,
    label: `${call.call.provider}/${call.call.modelId}`,
  }));
}

/** Points from the replies' own usage, for a session whose calls were not recorded. */
export function pointsOfReplies(
  entries: readonly SessionEntry[],
  windowOf: (provider: string, modelId: string) => number | undefined,
): TimelinePoint[] {
  const points: TimelinePoint[] = [];
  let cumulativeCost = 0;
  for (const entry of entries) {
    if (entry.type !== "message") continue;
    const message = entry.message as AgentMessage;
    if (message.role !== "assistant" || message.api === INJECTED_API) continue;
    const tokens = inputTotal(message.usage);
    const cost = Number.isFinite(message.usage?.cost?.total) ? message.usage.cost.total : 0;
    cumulativeCost += cost;
    points.push({
      number: points.length + 1,
      seq: undefined,
      tokens: tokens > 0 ? tokens : undefined,
      basis: tokens > 0 ? "usage" : "unknown",
      cached: message.usage?.cacheRead || 0,
      window: windowOf(message.provider, message.model),
      cost,
      cumulativeCost,
      changes: [],
      label: `${message.provider}/${message.model}`,
    });
  }
  return points;
}

export interface TimelineLayout {
  width: number;
  height: number;
  /** The plot area inside the axes. */
  left: number;
  top: number;
  right: number;
  bottom: number;
  /** The top of the scale, in tokens. */
  max: number;
  /** One per point; y undefined where the size is unknown. */
  xs: Float64Array;
  ys: (number | undefined)[];
  /** The line through the known points, as an SVG path. */
  line: string;
  /** The context window's line; undefined when no call's window is known. */
  windowY: number | undefined;
  window: number | undefined;
  ticks: { value: number; y: number }[];
}

function niceCeiling(value: number): number {
  if (value <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}

/**
 * Where each point goes in a chart of `width` × `height`. The scale reaches the window when it is at
 * most twice the largest context (so the window's line is on the chart), else just above the largest
 * context (a 1M window would flatten a 20k session to nothing; the chart says where the window is).
 */
export function layoutTimeline(
  points: readonly TimelinePoint[],
  width: number,
  height: number,
): TimelineLayout {
  const left = 52;
  const right = width - 12;
  const top = 12;
  const bottom = height - 26;
  let largest = 0;
  let window: number | undefined;
  for (const point of points) {
    if (point.tokens !== undefined && point.tokens > largest) largest = point.tokens;
    if (point.window !== undefined && point.window > 0) window = Math.max(window ?? 0, point.window);
  }
  const max = niceCeiling(window !== undefined && window <= largest * 2 ? window : largest * 1.1);
  const span = Math.max(1, points.length - 1);
  const xs = new Float64Array(points.length);
  const ys: (number | undefined)[] = new Array<number | undefined>(points.length);
  const scaleY = (value: number) => bottom - (Math.min(value, max) / max) * (bottom - top);
  let line = "";
  let drawing = false;
  points.forEach((point, index) => {
    const x = points.length === 1 ? (left + right) / 2 : left + (index / span) * (right - left);
    xs[index] = x;
    if (point.tokens === undefined) {
      ys[index] = undefined;
      drawing = false;
      return;
    }
    const y = scaleY(point.tokens);
    ys[index] = y;
    line += `${drawing ? "L" : "M"}${x.toFixed(1)} ${y.toFixed(1)}`;
    drawing = true;
  });
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((fraction) => ({
    value: max * fraction,
    y: scaleY(max * fraction),
  }));
  return {
    width,
    height,
    left,
    top,
    right,
    bottom,
    max,
    xs,
    ys,
    line,
    windowY: window !== undefined && window <= max ? scaleY(window) : undefined,
    window,
    ticks,
  };
}

const XML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};
const escapeXml = (text: string) =>
  text.replace(/[&<>"']/g, (character) => XML_ESCAPES[character] ?? character);

/** "12,345": as `toLocaleString("en-US")` for whole numbers, without its cost per call. */
function grouped(count: number): string {
  return String(Math.round(count)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** Past this many points each is too small to point at: the tooltips go (the table has every number). */
const TOOLTIP_LIMIT = 200;

/**
 * The points as SVG markup, one circle per call (with its numbers as a tooltip while there are few
 * enough to point at). Built as one string and put in at once: a thousand calls are a thousand circles,
 * and creating them one by one through the framework costs several times more. Only numbers and
 * escaped model names go in.
 */
export function pointsMarkup(
  points: readonly TimelinePoint[],
  layout: TimelineLayout,
  selected: number | "next",
): string {
  const dense = points.length > TOOLTIP_LIMIT;
  const radius = dense ? 1.6 : 3.2;
  const parts: string[] = [];
  points.forEach((point, index) => {
    const y = layout.ys[index];
    if (y === undefined || point.tokens === undefined) return;
    const x = layout.xs[index] ?? 0;
    const chosen = point.seq !== undefined && point.seq === selected ? " selected" : "";
    const circle = `<circle class="point${chosen}" data-basis="${point.basis}" cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="${radius}"`;
    if (dense) parts.push(`${circle}/>`);
    else {
      const counted = point.basis === "usage" ? "provider's count" : "estimated";
      parts.push(
        `${circle}><title>Call #${point.number}: ${grouped(point.tokens)} tokens (${counted}), ${escapeXml(point.label)}</title></circle>`,
      );
    }
  });
  return parts.join("");
}

/** Cost per call as bars and cumulative cost as a line, each one SVG path, in a strip `height` tall. */
export function costPaths(
  points: readonly TimelinePoint[],
  layout: TimelineLayout,
  height: number,
): { bars: string; cumulative: string } {
  const total = points.at(-1)?.cumulativeCost ?? 0;
  let largest = 0;
  for (const point of points) largest = Math.max(largest, point.cost);
  const base = height - 8;
  const room = height - 16;
  const width = Math.max(1, ((layout.right - layout.left) / Math.max(1, points.length)) * 0.7);
  let bars = "";
  let cumulative = "";
  points.forEach((point, index) => {
    const x = layout.xs[index] ?? 0;
    const bar = largest > 0 ? (point.cost / largest) * room : 0;
    if (bar > 0)
      bars += `M${(x - width / 2).toFixed(1)} ${base}v${(-bar).toFixed(1)}h${width.toFixed(1)}v${bar.toFixed(1)}Z`;
    const y = base - (total > 0 ? (point.cumulativeCost / total) * room : 0);
    cumulative += `${index === 0 ? "M" : "L"}${x.toFixed(1)} ${y.toFixed(1)}`;
  });
  return { bars, cumulative };
}
