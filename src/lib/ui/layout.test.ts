import { describe, expect, it } from "vitest";
import type { FlagStore } from "./flags.ts";
import { Layout } from "./layout.svelte.ts";

function memoryFlags(initial: Record<string, boolean> = {}): FlagStore & { values: Map<string, boolean> } {
  const values = new Map(Object.entries(initial));
  return {
    values,
    read: (key, fallback) => values.get(key) ?? fallback,
    write: (key, value) => void values.set(key, value),
  };
}

describe("layout", () => {
  it("on a wide screen shows sidebar, chat and (when opened) the inspector side by side, and remembers", () => {
    const flags = memoryFlags();
    const layout = new Layout(() => false, flags);
    expect(layout.sidebarShown).toBe(true);
    expect(layout.drawerOpen).toBe(false);
    expect(layout.chatShown).toBe(true);
    expect(layout.inspectorShown).toBe(false);

    layout.toggleInspector();
    layout.toggleSessions();
    expect(layout.inspectorShown).toBe(true);
    expect(layout.chatShown).toBe(true);
    expect(layout.sidebarShown).toBe(false);
    expect(flags.values.get("pi-playground:inspector")).toBe(true);
    expect(flags.values.get("pi-playground:sessions")).toBe(false);

    const again = new Layout(() => false, flags);
    expect(again.inspectorShown).toBe(true);
    expect(again.sidebarShown).toBe(false);
  });

  it("on a narrow screen keeps the drawer closed at first and shows chat or inspector, one at a time", () => {
    const flags = memoryFlags({ "pi-playground:sessions": true, "pi-playground:inspector": true });
    const layout = new Layout(() => true, flags);
    expect(layout.sidebarShown).toBe(false);
    expect(layout.drawerOpen).toBe(false);
    expect(layout.chatShown).toBe(true);
    expect(layout.inspectorShown).toBe(false);

    layout.toggleSessions();
    expect(layout.drawerOpen).toBe(true);
    expect(layout.sessionsShown).toBe(true);
    layout.closeDrawer();
    expect(layout.drawerOpen).toBe(false);

    layout.toggleInspector();
    expect(layout.inspectorShown).toBe(true);
    expect(layout.chatShown).toBe(false);
    layout.showChat();
    expect(layout.chatShown).toBe(true);
    layout.showInspector();
    expect(layout.tab).toBe("inspector");
    // The narrow tabs do not overwrite what the wide layout remembers.
    expect(flags.values.get("pi-playground:inspector")).toBe(true);
  });

  it("follows the screen as it changes width", () => {
    let narrow = false;
    const layout = new Layout(() => narrow, memoryFlags());
    layout.toggleInspector();
    expect(layout.chatShown && layout.inspectorShown).toBe(true);
    narrow = true;
    expect(layout.chatShown).toBe(true);
    expect(layout.inspectorShown).toBe(false);
    expect(layout.sidebarShown).toBe(false);
  });
});
