import { render } from "vitest-browser-svelte";
import type { ChatSession } from "../agent/chat-session.svelte.ts";
import type { Workspace } from "../sessions/workspace.svelte.ts";
import { FactSelection } from "../view-state/fact-selection.svelte.ts";
import PageContexts from "../view-state/PageContexts.test-support.svelte";
import FactsView from "./FactsView.svelte";

/** The inspector's facts tab on `session`, in the page's contexts, with the selection it shares. */
export async function showFactsView(workspace: Workspace, session: ChatSession) {
  const selection = new FactSelection(() => session.modelView);
  const rendered = await render(PageContexts<Record<string, unknown>>, {
    props: {
      workspace,
      session,
      selection,
      frame: "inspector",
      component: FactsView as never,
      props: { session, selection },
    },
  });
  return { selection, ...rendered };
}
