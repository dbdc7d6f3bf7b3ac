import { describe, expect, it, vi } from "vitest";
import { LazyComponent } from "./lazy-component.svelte.ts";

describe("LazyComponent", () => {
  it("has no component until its code is loaded, then keeps it, loading once", async () => {
    const component = { name: "Panel" };
    const load = vi.fn(async () => ({ default: component }));
    const lazy = new LazyComponent(load);
    expect(lazy.component).toBeUndefined();
    const first = lazy.load();
    const second = lazy.load();
    await Promise.all([first, second]);
    expect(lazy.component).toBe(component);
    await lazy.load();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("says why a load failed, and loads again when asked", async () => {
    const component = { name: "Panel" };
    const load = vi
      .fn<() => Promise<{ default: typeof component }>>()
      .mockRejectedValueOnce(new Error("Failed to fetch dynamically imported module"))
      .mockResolvedValueOnce({ default: component });
    const lazy = new LazyComponent(load);
    await lazy.load();
    expect(lazy.component).toBeUndefined();
    expect(lazy.error).toBe("Failed to fetch dynamically imported module");
    await lazy.load();
    expect(lazy.component).toBe(component);
    expect(lazy.error).toBeUndefined();
    expect(load).toHaveBeenCalledTimes(2);
  });
});
