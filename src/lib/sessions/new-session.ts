import { reusableSession } from "./empty-session.ts";
import type { Workspace } from "./workspace.svelte.ts";

/** "New session": reuse an untouched session (the open one, or one in the list) before creating another. */
export async function startNewSession(workspace: Workspace): Promise<void> {
  const current = workspace.current;
  const reusable = reusableSession(
    workspace.sessions,
    current
      ? { meta: { ...current.meta, settings: current.settings }, factCount: current.facts.length }
      : undefined,
  );
  if (reusable === undefined) await workspace.newSession();
  else if (reusable !== current?.id) await workspace.openSession(reusable);
}
