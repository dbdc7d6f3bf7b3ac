import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { LiveCall, LiveConnectionState } from "../../shared/live/live-protocol.ts";
import { piSession } from "../model-view/pi-sessions.test-support.ts";
import { MemorySessionStore } from "../storage/memory-store.ts";
import type { SyncMessage } from "../storage/tab-sync.ts";
import { exportSession } from "../sessions/export-format.ts";
import { snapshotOf } from "../sessions/export-snapshot.ts";
import { LiveRecorder } from "./live-recorder.ts";

/**
 * Recording a live pi session into the page's storage, against a session pi's own SessionManager writes to
 * a real file: every entry arrives once whatever order the page hears of them in, and the recorded
 * session exports as pi's file, byte for byte.
 */

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const usage = {
  input: 3,
  output: 2,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 5,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};

/** pi writing a real session file, as its CLI does with --session-dir. */
function piOnDisk() {
  const folder = mkdtempSync(join(tmpdir(), "live-recorder-"));
  folders.push(folder);
  const manager = piSession.SessionManager.create("/work/pi/project", folder);
  manager.appendModelChange("fixture", "fixture-pi");
  manager.appendThinkingLevelChange("off");
  manager.appendMessage({ role: "system", content: "You are pi.", timestamp: 1 });
  manager.appendMessage({
    role: "user",
    content: [{ type: "text", text: "please read notes.txt" }],
    timestamp: 2,
  });
  const reply = (text: string, timestamp: number) => ({
    role: "assistant",
    content: [{ type: "text", text }],
    api: "openai-completions",
    provider: "fixture",
    model: "fixture-pi",
    usage,
    stopReason: "stop",
    timestamp,
  });
  const file = () => readFileSync(join(folder, readdirSync(folder)[0] ?? ""), "utf8");
  return { manager, reply, file };
}

class FakeServer {
  state: LiveConnectionState;
  fetches = 0;
  constructor(state: LiveConnectionState) {
    this.state = state;
  }
  fetch = (connection: string) => {
    this.fetches++;
    return Promise.resolve(connection === this.state.id ? structuredClone(this.state) : undefined);
  };
}

function connectionState(
  manager: ReturnType<typeof piOnDisk>["manager"],
  calls: LiveCall[] = [],
): LiveConnectionState {
  return {
    id: "connection-1",
    about: { cwd: "/work/pi/project", pid: 1, mode: "rpc", control: false, askTimeoutMs: 1000 },
    header: manager.getHeader() as Record<string, unknown>,
    entries: structuredClone(manager.getEntries()),
    leafId: manager.getLeafId(),
    calls,
    status: {
      state: "connected",
      running: false,
      dropped: 0,
      callsDropped: 0,
      control: { allowed: false, on: false, gates: { tools: false, calls: false } },
      asks: [],
      lastSeen: 0,
    },
  };
}

function call(id: string, leafId: string | null): LiveCall {
  return {
    id,
    startedAt: 1,
    provider: "fixture",
    modelId: "fixture-pi",
    api: "openai-completions",
    leafId,
    transcript: { kept: "all", bytes: 2, value: [] },
    messages: { kept: "all", bytes: 2, value: [] },
    payload: { kept: "all", bytes: 20, value: { model: "fixture-pi" } },
    outcome: { stopReason: "stop", usage },
    timing: { durationMs: 10 },
  };
}

function recorder(store: MemorySessionStore, server: FakeServer, posted: SyncMessage[] = []) {
  return new LiveRecorder({
    store,
    post: (message) => posted.push(message),
    fetchState: server.fetch,
    hasModel: () => false,
    failed: (_connection, error) => {
      throw error;
    },
  });
}

describe("recording a live pi session", () => {
  it("stores every entry once, in any order of hearing, and exports pi's own file byte for byte", async () => {
    const pi = piOnDisk();
    const store = new MemorySessionStore();
    const server = new FakeServer(connectionState(pi.manager));
    const posted: SyncMessage[] = [];
    const live = recorder(store, server, posted);
    await live.sync({ id: "connection-1" });
    const sessionId = `pi-${String((pi.manager.getHeader() as { id: string }).id)}`;
    expect(live.sessionOf("connection-1")).toBe(sessionId);
    const meta = await store.getMeta(sessionId);
    expect(meta?.title).toBe("pi · project · please read notes.txt");
    expect(meta?.titleIsCustom).toBe(false);
    expect(posted[0]).toEqual({ type: "sessions" });

    // The reply arrives as a batch that continues what is stored...
    const before = pi.manager.getEntries().length;
    pi.manager.appendMessage(pi.reply("It says the build is green.", 3));
    server.state = connectionState(pi.manager, [
      call("call-1", (pi.manager.getEntries()[before - 1] as { id: string } | undefined)?.id ?? null),
    ]);
    await live.entries("connection-1", before, pi.manager.getEntries().slice(before), pi.manager.getLeafId());
    await live.call("connection-1", call("call-1", null));
    await live.call("connection-1", call("call-1", null));
    expect((await store.listCalls(sessionId)).calls.map((recorded) => recorded.id)).toEqual(["call-1"]);
    expect(posted.filter((message) => message.type === "written")).toHaveLength(1);

    // ...and a batch heard out of order (a missed one before it) makes it read the whole state again.
    pi.manager.appendMessage({ role: "user", content: [{ type: "text", text: "thanks" }], timestamp: 4 });
    pi.manager.appendSessionInfo("Notes check");
    pi.manager.appendMessage(pi.reply("You are welcome.", 5));
    const all = pi.manager.getEntries();
    server.state = connectionState(pi.manager, server.state.calls);
    const fetched = server.fetches;
    await live.entries("connection-1", all.length - 1, all.slice(-1), pi.manager.getLeafId());
    expect(server.fetches).toBe(fetched + 1);

    const loaded = await store.loadSession(sessionId);
    expect(loaded?.records.map((record) => record.entry)).toEqual(all);
    expect(loaded?.meta.title).toBe("pi · project · Notes check");
    const snapshot = await snapshotOf(store, sessionId, undefined);
    expect(snapshot && exportSession(snapshot, "pi").text).toBe(pi.file());
  });

  it("catches up from storage after a reload or another tab: only what is missing is added", async () => {
    const pi = piOnDisk();
    pi.manager.appendMessage(pi.reply("Done.", 3));
    const store = new MemorySessionStore();
    const server = new FakeServer(connectionState(pi.manager, [call("call-1", null)]));
    await recorder(store, server).sync({ id: "connection-1" });
    const sessionId = `pi-${String((pi.manager.getHeader() as { id: string }).id)}`;
    const stored = (await store.loadSession(sessionId))?.meta.nextSeq;

    pi.manager.appendMessage({ role: "user", content: [{ type: "text", text: "again" }], timestamp: 4 });
    server.state = connectionState(pi.manager, [call("call-1", null), call("call-2", null)]);
    // A fresh recorder (a reloaded page) knows nothing: it compares with what is stored.
    await recorder(store, server).sync({ id: "connection-1" });
    const loaded = await store.loadSession(sessionId);
    expect(loaded?.meta.nextSeq).toBe((stored ?? 0) + 1);
    expect(loaded?.records.map((record) => record.entry)).toEqual(pi.manager.getEntries());
    expect((await store.listCalls(sessionId)).calls.map((recorded) => recorded.id)).toEqual([
      "call-1",
      "call-2",
    ]);
  });
});
