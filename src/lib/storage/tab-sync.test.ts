import { describe, expect, it, vi } from "vitest";
import { FakeLocks } from "./fake-locks.ts";
import { SessionLocks, TabLock } from "./tab-sync.ts";

function setup() {
  const manager = new FakeLocks();
  const locks = new SessionLocks(manager.asLockManager());
  return { manager, locks };
}

describe("TabLock", () => {
  it("lets work of the same tab join the lock, and releases it when the last one is done", async () => {
    const { manager, locks } = setup();
    const lock = new TabLock(locks, "s");
    let finishFirst = () => undefined as void;
    const first = lock.run(() => new Promise<string>((resolve) => (finishFirst = () => resolve("first"))));
    await Promise.resolve();
    expect(lock.held).toBe(true);
    let finishSecond = () => undefined as void;
    const second = lock.run(() => new Promise<string>((resolve) => (finishSecond = () => resolve("second"))));
    finishFirst();
    // The first caller is answered when its own work is done; the joined work still holds the lock.
    expect(await first).toEqual({ acquired: true, value: "first" });
    expect(manager.held.has(SessionLocks.nameFor("s"))).toBe(true);
    finishSecond();
    expect(await second).toEqual({ acquired: true, value: "second" });
    await vi.waitFor(() => expect(manager.held.size).toBe(0));
    expect(lock.held).toBe(false);
  });

  it("is refused at once while another tab holds the session", async () => {
    const { manager, locks } = setup();
    manager.held.add(SessionLocks.nameFor("s"));
    expect(await new TabLock(locks, "s").run(async () => "never")).toEqual({ acquired: false });
  });
});

describe("SessionLocks", () => {
  it("tells whether a tab is still open by the lock it holds", async () => {
    const { locks } = setup();
    locks.holdTab("tab-1");
    await Promise.resolve();
    expect(await locks.isTabAlive("tab-1")).toBe(true);
    expect(await locks.isTabAlive("tab-2")).toBe(false);
  });

  it("waits until a session is free, or gives up when told to", async () => {
    const { manager, locks } = setup();
    manager.held.add(SessionLocks.nameFor("s"));
    const controller = new AbortController();
    const free = locks.whenFree("s", controller.signal, 5);
    setTimeout(() => manager.held.delete(SessionLocks.nameFor("s")), 20);
    expect(await free).toBe(true);
    controller.abort();
    manager.held.add(SessionLocks.nameFor("s"));
    expect(await locks.whenFree("s", controller.signal, 5)).toBe(false);
  });
});

describe("TabLock, taken and given back in quick succession", () => {
  it("never refuses this tab's own work while it is releasing or acquiring the lock", async () => {
    const { locks } = setup();
    const lock = new TabLock(locks, "s");
    const results = await Promise.all([
      lock.run(async () => 1),
      lock.run(async () => 2),
      lock.run(async () => 3),
    ]);
    expect(results).toEqual([
      { acquired: true, value: 1 },
      { acquired: true, value: 2 },
      { acquired: true, value: 3 },
    ]);
    // Right after one run ends the Web Lock may still be on its way back; the next run waits, not fails.
    expect(await lock.run(async () => "next")).toEqual({ acquired: true, value: "next" });
    expect(await lock.run(async () => "and again")).toEqual({ acquired: true, value: "and again" });
  });
});
