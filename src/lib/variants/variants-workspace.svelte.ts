import type { ChatSession } from "../agent/chat-session.svelte.ts";
import { VariantRun } from "../agent/variant-sets/variant-run.svelte.ts";
import type { ColumnSetup, VariantSetView } from "../agent/variant-sets/variant-set.ts";

/**
 * The Variants view's work on one session in this tab: the columns being set up for the next comparison,
 * and the comparison being worked on (which keeps streaming while another inspector view is shown). Kept
 * per session for as long as the session is open, so leaving the view and coming back finds it as it was.
 */
export class VariantsWorkspace {
  /** The columns the next comparison starts with. */
  columns = $state<ColumnSetup[]>([]);
  #run = $state.raw<VariantRun | undefined>(undefined);
  readonly #session: ChatSession;

  constructor(session: ChatSession, columns: ColumnSetup[]) {
    this.#session = session;
    this.columns = columns;
  }

  get run(): VariantRun | undefined {
    return this.#run;
  }

  /** A new comparison over the session's branch as it is now, with the columns as set up. */
  start(): VariantRun {
    this.#run = new VariantRun(this.#session, $state.snapshot(this.columns) as ColumnSetup[]);
    return this.#run;
  }

  /** Take up a stored comparison again (its columns' turns read from their calls). */
  async resume(set: VariantSetView): Promise<VariantRun> {
    const session = this.#session;
    const run = await VariantRun.resume(session, set, (call) => session.calls.body(call.seq));
    this.#run = run;
    return run;
  }

  /** Set up a new comparison: the columns stay as they were, the next prompt starts it. */
  clear(): void {
    this.#run?.stop();
    this.#run = undefined;
  }
}

const workspaces = new WeakMap<ChatSession, VariantsWorkspace>();

export function workspaceOf(session: ChatSession, seed: () => ColumnSetup[]): VariantsWorkspace {
  let workspace = workspaces.get(session);
  if (!workspace) {
    workspace = new VariantsWorkspace(session, seed());
    workspaces.set(session, workspace);
  }
  return workspace;
}
