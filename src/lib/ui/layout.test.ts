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
    expect(again.railShown).toBe(true);
  });

  it("folds the sessions to a rail on a wide screen, and never on a narrow one or beside a maximised inspector", () => {
    const flags = memoryFlags();
    const layout = new Layout(() => false, flags);
    expect(layout.railShown).toBe(false);
    layout.toggleSessions();
    expect(layout.railShown).toBe(true);
    expect(layout.sessionsShown).toBe(false);
    layout.toggleInspector();
    layout.toggleMaximised();
    expect(layout.inspectorMaximised).toBe(true);
    expect(layout.railShown).toBe(false);
    layout.toggleMaximised();
    expect(layout.railShown).toBe(true);
    layout.toggleSessions();
    expect(layout.railShown).toBe(false);
    expect(layout.sidebarShown).toBe(true);

    const narrow = new Layout(() => true, memoryFlags({ "pi-playground:sessions": false }));
    expect(narrow.railShown).toBe(false);
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

  it("remembers the panes' sizes, within their bounds", () => {
    const values = new Map<string, string>();
    const storage = {
      getItem: (key: string) => values.get(key) ?? null,
      setItem: (key: string, value: string) => void values.set(key, value),
    };
    const layout = new Layout(() => false, memoryFlags(), storage);
    expect(layout.sessionsWidth).toBe(240);
    expect(layout.inspectorShare).toBe(60);
    layout.resizeSessions(333);
    layout.resizeInspector(95);
    const again = new Layout(() => false, memoryFlags(), storage);
    expect(again.sessionsWidth).toBe(333);
    expect(again.inspectorShare).toBe(80);
  });

  it("maximises the inspector over the sessions and the chat, and gives the width back", () => {
    let narrow = false;
    const layout = new Layout(() => narrow, memoryFlags({ "pi-playground:inspector": true }));
    layout.toggleMaximised();
    expect(layout.inspectorMaximised).toBe(true);
    expect(layout.inspectorShown).toBe(true);
    expect(layout.chatShown).toBe(false);
    expect(layout.sidebarShown).toBe(false);
    // Asking for the sessions gives the width back, with the list as it was (open).
    layout.toggleSessions();
    expect(layout.inspectorMaximised).toBe(false);
    expect(layout.sidebarShown).toBe(true);
    // Asking for the chat (a shortcut, "Show in chat") too.
    layout.toggleMaximised();
    layout.showChat();
    expect(layout.inspectorMaximised).toBe(false);
    expect(layout.chatShown).toBe(true);
    // Closing the inspector ends it: opened again, it is beside the chat.
    layout.toggleMaximised();
    layout.toggleInspector();
    layout.toggleInspector();
    expect(layout.inspectorMaximised).toBe(false);
    // A narrow screen has one pane at a time anyway.
    layout.toggleMaximised();
    narrow = true;
    expect(layout.inspectorMaximised).toBe(false);
    layout.showInspector();
    expect(layout.inspectorShown).toBe(true);
  });
});
