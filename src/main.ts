import { mount } from "svelte";
import "./app.css";
import App from "./App.svelte";
import { Workspace } from "./lib/sessions/workspace.svelte.ts";

const target = document.getElementById("app");
if (!target) throw new Error("The page has no #app element.");

try {
  const workspace = await Workspace.start(window.location.origin);
  window.addEventListener("pagehide", () => workspace.onPageHide());
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden") workspace.onPageHide();
  });
  mount(App, { target, props: { workspace } });
} catch (error) {
  target.textContent = `The playground could not start: ${(error as Error).message}`;
  target.setAttribute("role", "alert");
}
