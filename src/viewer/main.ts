import { mount } from "svelte";
import "../app.css";
import Viewer from "./Viewer.svelte";
import { EMBEDDED_SESSION_ID } from "../lib/sessions/html-export.ts";
import { parseSessionFile } from "../lib/sessions/import-file.ts";
import { Workspace } from "../lib/sessions/workspace.svelte.ts";

/**
 * The page of a session exported as HTML (built by vite.viewer.config.ts, inlined by html-export.ts): it
 * reads the session's JSON export from the file itself and shows it with the app's components, in
 * memory, without the network.
 */
const target = document.getElementById("app");
if (!target) throw new Error("The page has no #app element.");

const READ_ONLY =
  "This page is a session exported from pi playground: it can be read and searched here, and continued after importing the file into the playground.";

try {
  const embedded = document.getElementById(EMBEDDED_SESSION_ID)?.textContent ?? "";
  const parsed = parseSessionFile(embedded, "this file");
  const workspace = await Workspace.view(parsed, document.title, { readOnlyReason: READ_ONLY });
  mount(Viewer, { target, props: { workspace, calls: parsed.calls } });
} catch (error) {
  target.textContent = `This session could not be shown: ${(error as Error).message}`;
  target.setAttribute("role", "alert");
}
