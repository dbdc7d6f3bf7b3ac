import { MemorySessionStore } from "../storage/memory-store.ts";
import { Workspace } from "./workspace.svelte.ts";
import type { ChatSession } from "../agent/chat-session.svelte.ts";

/**
 * The page's workspace for component tests in the browser: the real one, started as main.ts starts it,
 * with its sessions in memory. Its open session is new and empty but for the system prompt.
 */
export async function startTestWorkspace(): Promise<{ workspace: Workspace; session: ChatSession }> {
  const workspace = await Workspace.start(location.origin, {
    openStore: async () => new MemorySessionStore(),
  });
  const session = workspace.current;
  if (!session) throw new Error("The workspace opened no session.");
  return { workspace, session };
}
