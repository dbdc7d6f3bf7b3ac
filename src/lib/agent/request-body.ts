import type { Message } from "@earendil-works/pi-ai";
import { DEFAULT_SLICES, holdsLongString, jsonInSlices } from "./json-in-slices.ts";
import { yieldToPage, type Yield } from "./yield-to-page.ts";
import { pageScrollQuiet, type ScrollQuiet } from "../ui/scroll-quiet.ts";

// The request's `context.messages` as JSON, without serializing a large session in one task on the page's
// thread. The array's JSON is made of chunks, each the JSON of a run of consecutive messages, kept as a Blob
// (its bytes held by the browser, outside the JS heap) and reused by the next request that sends the same
// run of message objects. The body is a Blob composed of these: no string of the whole context is ever made.
//
// Reuse relies on sent messages never changing in place once stored: the transcript replaces a fact with a
// new object (`Transcript.replaceAt`), pi's Agent hands over an assistant message only once it is complete
// (`message_end`), and a converted fact is a new object whenever its fields change (`convertMessage`'s
// cache). `request-body.test.ts` runs a session's turns with its facts frozen to hold the app to that.

/**
 * Chunks are a tree. A chunk of level 0 holds the JSON of about `LEAF_MEAN` messages (at most `LEAF_MAX`),
 * made from a string; a chunk of level k holds about `FANOUT` chunks of level k - 1, as a Blob made of those
 * Blobs (which references them, copying nothing). A body is then a few dozen parts whatever the session's
 * size: composing a Blob costs the page's thread about as much per part as serializing tens of kilobytes
 * (measured in Chromium: a Blob of 100 Blob parts took 26–32 ms on a loaded machine, of 10 parts 4 ms).
 */
const LEAF_MEAN = 64;
const LEAF_MAX = 512;
const FANOUT = 16;
const LEVELS = 4;

/**
 * Where chunks end, decided once per message object (at random), not by position: the message ends chunks
 * of every level up to its rank (-1: none). A message hidden, inserted or compacted away changes the chunks
 * around it only, and the rest are reused.
 */
const ranks = new WeakMap<Message, number>();
/** The chunks of each level by their first message, with the messages each was made of (checked by identity). */
const chunks = Array.from(
  { length: LEVELS },
  () => new WeakMap<Message, { members: readonly Message[]; json: Blob }>(),
);

function rankOf(message: Message): number {
  let rank = ranks.get(message);
  if (rank === undefined) {
    let draw = Math.random() * LEAF_MEAN;
    rank = -1;
    if (draw < 1) {
      rank = 0;
      while (rank < LEVELS - 1 && (draw *= FANOUT) < 1) rank++;
    }
    ranks.set(message, rank);
  }
  return rank;
}

/** How many messages' chunk ends are found between two yields: a session's list is walked in slices. */
const ENDS_PER_YIELD = 2_048;

/**
 * For each message, the highest level of the chunks it ends (-1: none); a leaf too long is ended by length.
 * Yields every `ENDS_PER_YIELD` messages, so that finding them in a list of 100,000 is not one task.
 */
function* chunkEnds(messages: readonly Message[]): Generator<void, Int8Array> {
  const ends = new Int8Array(messages.length);
  let leafLength = 0;
  for (let index = 0; index < messages.length; index++) {
    if (index > 0 && index % ENDS_PER_YIELD === 0) yield;
    let rank = rankOf(messages[index] as Message);
    leafLength++;
    if (rank < 0 && leafLength >= LEAF_MAX) rank = 0;
    if (rank >= 0) leafLength = 0;
    ends[index] = rank;
  }
  return ends;
}

/**
 * The JSON of messages holding a long string (`jsonInSlices`), kept as a Blob: it was made a slice at a time,
 * and a message at the end of the session, outside any chunk, would otherwise be serialized again by every
 * request.
 */
const longJson = new WeakMap<Message, Blob>();

/**
 * A long message's JSON is held in Blobs of one slice each (`jsonInSlices`' slices, a quarter of a megabyte):
 * in Chromium (3 December, same page, same run) a Blob made from a string of 1 MB cost 3–13 times one made
 * from 256 kB, not 4. They are composed `LONG_FANOUT` at a time, each composition a step of its own, since
 * a Blob made of many Blobs costs the page about 0.3 ms per part.
 */
const LONG_FANOUT = 16;

/**
 * One message's JSON: a string, or a Blob for a message holding a long string, made in slices with a yield
 * between them. An element JSON.stringify cannot represent is written as null inside an array.
 */
function* messageJson(message: Message): Generator<void, string | Blob> {
  const kept = longJson.get(message);
  if (kept) return kept;
  const pieces = yield* jsonInSlices(message);
  if (pieces === undefined) return "null";
  if (pieces.length === 1) return pieces[0] as string;
  let level: BlobPart[] = [];
  for (const piece of pieces) {
    level.push(piece.length < 4_096 ? piece : new Blob([piece]));
    yield;
  }
  while (level.length > LONG_FANOUT) {
    const above: BlobPart[] = [];
    for (let start = 0; start < level.length; start += LONG_FANOUT) {
      above.push(new Blob(level.slice(start, start + LONG_FANOUT)));
      yield;
    }
    level = above;
  }
  const json = new Blob(level);
  longJson.set(message, json);
  return json;
}

/** The members' JSON, joined as `JSON.stringify` joins an array's elements: one string, unless one is long. */
function* membersJson(members: readonly Message[]): Generator<void, BlobPart[]> {
  const jsons: (string | Blob)[] = [];
  let long = false;
  for (const message of members) {
    // Most messages hold no long string: serialized here, with no generator of their own.
    if (!holdsLongString(message, DEFAULT_SLICES.longAt)) {
      jsons.push((JSON.stringify(message) as string | undefined) ?? "null");
      continue;
    }
    const json = yield* messageJson(message);
    if (typeof json !== "string") long = true;
    jsons.push(json);
  }
  if (!long) return [jsons.join(",")];
  const parts: BlobPart[] = [];
  let run: string[] = [];
  for (const [index, json] of jsons.entries()) {
    if (index > 0) run.push(",");
    if (typeof json === "string") run.push(json);
    else {
      parts.push(run.join(""), json);
      run = [];
    }
  }
  parts.push(run.join(""));
  return parts.filter((part) => typeof part !== "string" || part.length > 0);
}

function cachedChunk(messages: readonly Message[], from: number, to: number, level: number) {
  const hit = chunks[level]?.get(messages[from] as Message);
  if (!hit || hit.members.length !== to - from) return undefined;
  for (let index = from; index < to; index++) if (hit.members[index - from] !== messages[index]) return;
  return hit.json;
}

/**
 * The chunk of `level` over messages [from, to) (which ends where a chunk of that level ends), cached or made
 * from its children; yields before serializing each leaf, so its driver can give the thread back or stop.
 */
function* chunkOf(
  messages: readonly Message[],
  ends: Int8Array,
  from: number,
  to: number,
  level: number,
): Generator<void, Blob> {
  const cached = cachedChunk(messages, from, to, level);
  if (cached) return cached;
  let json: Blob;
  if (level === 0) {
    yield;
    json = new Blob(yield* membersJson(messages.slice(from, to)));
  } else {
    const parts: BlobPart[] = [];
    let start = from;
    for (let index = from; index < to; index++) {
      if ((ends[index] as number) < level - 1) continue;
      if (parts.length > 0) parts.push(",");
      parts.push(yield* chunkOf(messages, ends, start, index + 1, level - 1));
      start = index + 1;
    }
    json = new Blob(parts);
  }
  chunks[level]?.set(messages[from] as Message, { members: messages.slice(from, to), json });
  return json;
}

/**
 * The parts of `JSON.stringify(messages)`: the closed chunks of the highest level, then of each lower level
 * in what remains, and the messages after the last chunk's end as a string (serialized afresh, not kept).
 */
function* jsonParts(messages: readonly Message[]): Generator<void, BlobPart[]> {
  const ends = yield* chunkEnds(messages);
  const parts: BlobPart[] = [];
  let start = 0;
  for (let level = LEVELS - 1; level >= 0; level--) {
    for (let index = start; index < messages.length; index++) {
      if ((ends[index] as number) < level) continue;
      parts.push(parts.length > 0 ? "," : "[", yield* chunkOf(messages, ends, start, index + 1, level));
      start = index + 1;
    }
  }
  const rest = yield* membersJson(messages.slice(start));
  const [only] = rest;
  if (rest.length === 1 && typeof only === "string") {
    if (parts.length === 0) return [`[${only}]`];
    parts.push(only.length > 0 ? `,${only}]` : "]");
    return parts;
  }
  parts.push(parts.length > 0 ? "," : "[", ...rest, "]");
  return parts;
}

/** How long one slice of serializing may run before the page's thread is given back, in milliseconds. */
const SLICE_MS = 8;

/**
 * The parts of `JSON.stringify(messages)`: cached chunks where the same messages were sent (or prepared)
 * before, the others serialized now, a slice at a time with `pause` between slices.
 */
export async function messagesJsonParts(
  messages: readonly Message[],
  pause: Yield = yieldToPage,
  now: () => number = () => performance.now(),
): Promise<BlobPart[]> {
  const work = jsonParts(messages);
  let sliceStart = now();
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
    if (now() - sliceStart >= SLICE_MS) {
      await pause();
      sliceStart = now();
    }
  }
}

/**
 * Serializing the chunks a request with `messages()` would need and that are not cached yet, a little at a
 * time: each call works while `hasTime` says there is time (an idle period's deadline) and says whether all
 * are done. The same list goes on where the last call left it: starting again would walk the whole list (its
 * chunk ends, its cached chunks) before any new work, which at 100,000 messages is longer than an idle period.
 * A new list (the session moved on) starts afresh.
 */
export function chunkPreparer(messages: () => readonly Message[]): (hasTime: () => boolean) => boolean {
  let list: readonly Message[] | undefined;
  let work: Generator<void, BlobPart[]> | undefined;
  return (hasTime) => {
    const current = messages();
    if (current !== list) {
      list = current;
      work = jsonParts(current);
    }
    if (!work) return true;
    for (;;) {
      if (work.next().done) {
        work = undefined;
        return true;
      }
      if (!hasTime()) return false;
    }
  };
}

/**
 * How long one idle period's preparing may run, in milliseconds. The browser grants idle periods of up to
 * 50 ms; using one whole made a task that input arriving meanwhile waited behind, and with a step's overrun
 * and a collection in it, tasks of 50 to 130 ms after a session of 100,000 facts opened.
 */
const IDLE_SLICE_MS = 10;

/** Whether an idle period has time for another step: some of the period left, and its slice not used up. */
export function idleTime(deadline: IdleDeadline, now: () => number = () => performance.now()): () => boolean {
  const started = now();
  return () => deadline.timeRemaining() > 4 && now() - started < IDLE_SLICE_MS;
}

/**
 * How long after the last scroll preparing waits. A session of 100,000 facts opened is still being prepared
 * when its reader starts scrolling: each idle period's slice then fell between the scroll's frames (up to
 * 80 ms of the page's thread over a scroll of 60 moves), with its strings for the collector and its Blobs
 * registered with the browser. A request sent meanwhile serializes what is missing.
 */
const QUIET_AFTER_SCROLL_MS = 1_000;

/** The idle callback preparing chunks now, if any: one at a time, the latest session's. */
let preparing: number | undefined;
/** The timer waiting for scrolling to stop before preparing goes on, if any. */
let postponed: ReturnType<typeof setTimeout> | undefined;

/**
 * Prepare, while the page is idle and not scrolled, the chunks the next request would need (`messages` is
 * asked again at each idle period, so it follows the session); a request made sooner serializes what is
 * missing itself.
 */
export function prepareWhenIdle(
  messages: () => readonly Message[],
  scrolls: ScrollQuiet = pageScrollQuiet(),
): void {
  if (typeof requestIdleCallback !== "function") return;
  if (preparing !== undefined) cancelIdleCallback(preparing);
  if (postponed !== undefined) clearTimeout(postponed);
  preparing = postponed = undefined;
  const prepare = chunkPreparer(messages);
  const step = (deadline: IdleDeadline) => {
    preparing = undefined;
    const wait = scrolls.untilQuiet(QUIET_AFTER_SCROLL_MS);
    if (wait > 0) {
      postponed = setTimeout(() => {
        postponed = undefined;
        preparing = requestIdleCallback(step);
      }, wait);
      return;
    }
    if (!prepare(idleTime(deadline))) preparing = requestIdleCallback(step);
  };
  preparing = requestIdleCallback(step);
}
