import { mount } from "svelte";
import "./app.css";
import App from "./App.svelte";
import { Workspace } from "./lib/sessions/workspace.svelte.ts";
import { IdbSessionStore } from "./lib/storage/idb-store.ts";
import { storageLimits } from "./lib/storage/storage-limits.ts";
import { showStartup } from "./lib/sessions/startup.ts";

const target = document.getElementById("app");
if (!target) throw new Error("The page has no #app element.");

if (window.top !== window.self) {
  // A static host may not send the headers that forbid framing; a framed playground could be clicked
  // through by the framing site (sending, approving, spending a connected proxy's keys), so it does not start.
  target.textContent = "The playground does not run inside a frame: open it in its own tab.";
  target.setAttribute("role", "alert");
} else {
  const limits = storageLimits(import.meta.env);
  const startup = showStartup(target, limits.slowAfterMs);
  try {
    // The directory the page is served from: the app may live under any path of a static host.
    const workspace = await Workspace.start(new URL(".", window.location.href).href.replace(/\/$/, ""), {
      // Storage that never answers must not leave the page blank: the person may go on in memory.
      openStore: (hooks) =>
        Promise.race([
          IdbSessionStore.open({ ...hooks, timeoutMs: limits.openTimeoutMs }),
          startup.memoryChosen,
        ]),
    });
    startup.dispose();
    window.addEventListener("pagehide", () => workspace.onPageHide());
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "hidden") workspace.onPageHide();
    });
    // Messages that could not be stored live only in this tab: ask before it goes away.
    window.addEventListener("beforeunload", (event) => {
      if (workspace.current?.unsaved) event.preventDefault();
    });
    mount(App, { target, props: { workspace } });
  } catch (error) {
    startup.dispose();
    target.textContent = `The playground could not start: ${(error as Error).message}`;
    target.setAttribute("role", "alert");
  }
}
