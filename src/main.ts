import { mount } from "svelte";
import "./app.css";
import App from "./App.svelte";
import { Workspace } from "./lib/sessions/workspace.svelte.ts";
import { IdbSessionStore } from "./lib/storage/idb-store.ts";
import { showStartup } from "./lib/ui/startup.ts";

const target = document.getElementById("app");
if (!target) throw new Error("The page has no #app element.");

const startup = showStartup(target);
try {
  const workspace = await Workspace.start(window.location.origin, {
    // Storage that never answers must not leave the page blank: the person may go on in memory.
    openStore: (hooks) => Promise.race([IdbSessionStore.open(hooks), startup.memoryChosen]),
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
