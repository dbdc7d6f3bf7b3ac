/**
 * An in-memory stand-in for the Web Locks API with the parts the playground uses (exclusive locks,
 * `ifAvailable`, `query`), shared by "tabs" in unit tests. Not used by the app.
 */
export class FakeLocks {
  readonly held = new Set<string>();

  async request(name: string, ...rest: unknown[]): Promise<unknown> {
    const callback = rest.at(-1) as (lock: { name: string } | null) => Promise<unknown>;
    const options = (rest.length > 1 ? rest[0] : {}) as { ifAvailable?: boolean };
    if (this.held.has(name)) {
      if (options.ifAvailable) return callback(null);
      return new Promise(() => undefined);
    }
    this.held.add(name);
    try {
      return await callback({ name });
    } finally {
      // Browsers hand a lock back a moment after its callback settles; so does the fake.
      await new Promise((resolve) => setTimeout(resolve, 0));
      this.held.delete(name);
    }
  }

  async query(): Promise<{ held: { name: string }[]; pending: never[] }> {
    return { held: [...this.held].map((name) => ({ name })), pending: [] };
  }

  asLockManager(): LockManager {
    return this as unknown as LockManager;
  }
}
