import type { Message } from "@earendil-works/pi-ai";

// The request's `context.messages` as JSON, without serializing a large session in one task on the page's
// thread. The array's JSON is made of chunks, each the JSON of a run of consecutive messages, kept as a Blob
// (its bytes held by the browser, outside the JS heap) and reused by the next request that sends the same
// run of message objects. The body is a Blob composed of these: no string of the whole context is ever made.
//
// Reuse relies on sent messages never changing in place once stored: the transcript replaces a fact with a
// new object (`Transcript.replaceAt`), pi's Agent hands over an assistant message only once it is complete
// (`message_end`), and a converted fact is a new object whenever its fields change (`convertMessage`'s
// cache). `request-body.test.ts` runs a session's turns with its facts frozen to hold the app to that.

/** Messages per chunk on average, and at most: about a third of a megabyte to serialize for a typical one. */
const MEAN_CHUNK = 128;
const MAX_CHUNK = 512;

/**
 * Where chunks end, decided once per message object (at random, one in `MEAN_CHUNK`), not by position: a
 * message hidden, inserted or compacted away changes the chunk around it only, and the rest are reused.
 */
const endsChunk = new WeakMap<Message, boolean>();
/** A chunk by its first message, with the messages it was made of (checked by identity before reuse). */
const chunks = new WeakMap<Message, { members: readonly Message[]; json: Blob }>();

function isChunkEnd(message: Message): boolean {
  let ends = endsChunk.get(message);
  if (ends === undefined) {
    ends = Math.random() < 1 / MEAN_CHUNK;
    endsChunk.set(message, ends);
  }
  return ends;
}

/** The start of each chunk of `messages` and the end of the last, in order; the last chunk is open-ended. */
function chunkBounds(messages: readonly Message[]): number[] {
  const bounds = [0];
  let start = 0;
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index] as Message;
    if (isChunkEnd(message) || index + 1 - start >= MAX_CHUNK) {
      start = index + 1;
      bounds.push(start);
    }
  }
  if (bounds.at(-1) !== messages.length) bounds.push(messages.length);
  return bounds;
}

/** The members' JSON, joined as `JSON.stringify` joins an array's elements. */
function membersJson(members: readonly Message[]): string {
  // An element JSON.stringify cannot represent is written as null inside an array.
  return members.map((message) => JSON.stringify(message) ?? "null").join(",");
}

function cachedChunk(messages: readonly Message[], start: number, end: number): Blob | undefined {
  const hit = chunks.get(messages[start] as Message);
  if (!hit || hit.members.length !== end - start) return undefined;
  for (let index = start; index < end; index++) if (hit.members[index - start] !== messages[index]) return;
  return hit.json;
}

function makeChunk(messages: readonly Message[], start: number, end: number): Blob {
  const members = messages.slice(start, end);
  const json = new Blob([membersJson(members)]);
  chunks.set(members[0] as Message, { members, json });
  return json;
}

/** Gives the page's thread back between slices of work (a task of its own after each). */
export type Yield = () => Promise<void>;

export const yieldToPage: Yield = () =>
  new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });

/** How long one slice of serializing may run before the page's thread is given back, in milliseconds. */
const SLICE_MS = 8;

/**
 * The parts of `JSON.stringify(messages)`: cached chunks where the same messages were sent (or prepared)
 * before, the others serialized now, a slice at a time with `pause` between slices. The chunk at the end,
 * which grows with the session, is serialized afresh and not kept.
 */
export async function messagesJsonParts(
  messages: readonly Message[],
  pause: Yield = yieldToPage,
  now: () => number = () => performance.now(),
): Promise<BlobPart[]> {
  const bounds = chunkBounds(messages);
  const parts: BlobPart[] = ["["];
  let sliceStart = now();
  for (let chunk = 0; chunk + 1 < bounds.length; chunk++) {
    const start = bounds[chunk] as number;
    const end = bounds[chunk + 1] as number;
    if (chunk > 0) parts.push(",");
    const last = chunk + 2 === bounds.length;
    const cached = last ? undefined : cachedChunk(messages, start, end);
    if (cached) {
      parts.push(cached);
      continue;
    }
    if (now() - sliceStart >= SLICE_MS) {
      await pause();
      sliceStart = now();
    }
    parts.push(last ? membersJson(messages.slice(start, end)) : makeChunk(messages, start, end));
  }
  parts.push("]");
  return parts;
}

/**
 * Serialize the chunks a request with `messages` would need and that are not cached yet, while `hasTime`
 * says there is time (an idle period's deadline); true once all are. The open chunk at the end is left.
 */
export function prepareMessagesJson(messages: readonly Message[], hasTime: () => boolean): boolean {
  const bounds = chunkBounds(messages);
  for (let chunk = 0; chunk + 2 < bounds.length; chunk++) {
    const start = bounds[chunk] as number;
    const end = bounds[chunk + 1] as number;
    if (cachedChunk(messages, start, end)) continue;
    if (!hasTime()) return false;
    makeChunk(messages, start, end);
  }
  return true;
}

/** The idle callback preparing chunks now, if any: one at a time, the latest session's. */
let preparing: number | undefined;

/**
 * Prepare, while the page is idle, the chunks the next request would need (`messages` is asked again at
 * each idle period, so it follows the session); a request made sooner serializes what is missing itself.
 */
export function prepareWhenIdle(messages: () => readonly Message[]): void {
  if (typeof requestIdleCallback !== "function") return;
  if (preparing !== undefined) cancelIdleCallback(preparing);
  const step = (deadline: IdleDeadline) => {
    preparing = undefined;
    if (!prepareMessagesJson(messages(), () => deadline.timeRemaining() > 4))
      preparing = requestIdleCallback(step);
  };
  preparing = requestIdleCallback(step);
}
