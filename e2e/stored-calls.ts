import type { Message } from "@earendil-works/pi-ai";
import type { Page } from "@playwright/test";
import { expect } from "./support.ts";

export interface StoredCall {
  seq: number;
  id: string;
  modelId: string;
  options: Record<string, unknown>;
  messages: { kept: string; value?: Message[] };
  payload: { kept: string; value?: unknown; reason?: string };
  endpoint?: { url: string; headers: Record<string, string> };
}

/** The current session's recorded calls, each with its body, read straight from IndexedDB, in order. */
export async function readStoredCalls(page: Page): Promise<StoredCall[]> {
  return page.evaluate(async () => {
    const sessionId = localStorage.getItem("pi-playground:current-session") ?? "";
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open("pi-playground");
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const range = IDBKeyRange.bound([sessionId, -1], [sessionId, Number.MAX_SAFE_INTEGER]);
    const all = <T>(store: string) =>
      new Promise<T[]>((resolve, reject) => {
        const request = db.transaction(store, "readonly").objectStore(store).getAll(range);
        request.onsuccess = () => resolve(request.result as T[]);
        request.onerror = () => reject(request.error);
      });
    const calls = await all<{ seq: number; id: string; modelId: string }>("calls");
    const bodies = await all<{ seq: number; messages: unknown; payload: unknown; endpoint?: unknown }>(
      "callBodies",
    );
    db.close();
    return calls.map((call) => {
      const body = bodies.find((candidate) => candidate.seq === call.seq);
      return { ...call, messages: body?.messages, payload: body?.payload, endpoint: body?.endpoint };
    }) as StoredCall[];
  });
}

/** Wait until the session has recorded `count` calls (a call is stored once its reply is over). */
export async function storedCalls(page: Page, count: number): Promise<StoredCall[]> {
  await expect.poll(async () => (await readStoredCalls(page)).length, { timeout: 15_000 }).toBe(count);
  return readStoredCalls(page);
}

/** The messages the last recorded call sent, after the system prompt, as "role: text" lines. */
export async function lastRequestLines(page: Page, calls: number): Promise<string[]> {
  const call = (await storedCalls(page, calls)).at(-1);
  if (call?.messages.kept !== "all" || !call.messages.value)
    throw new Error("the call's messages were not kept");
  return call.messages.value
    .filter((message) => message.role !== "system")
    .map((message) => `${message.role}: ${textOf(message)}`);
}

function textOf(message: Message): string {
  if (typeof message.content === "string") return message.content;
  return message.content
    .map((part) => (part.type === "text" ? part.text : part.type === "toolCall" ? `→ ${part.name}` : ""))
    .join("");
}
