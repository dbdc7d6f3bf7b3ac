import type { PolicyRole } from "./types.ts";

/**
 * What the model sees of a tutorial-type fact: nothing (`hidden`, the tutorial's default: kept for people
 * and audit, never sent) or a user message carrying its text (`userText`).
 */
export type Visibility = "hidden" | "userText";

export type VisibilityPolicies = Readonly<Record<PolicyRole, Visibility>>;

export const DEFAULT_POLICIES: VisibilityPolicies = {
  notification: "hidden",
  approval_request: "hidden",
  progress: "hidden",
};

/** Everything that shapes the model view besides the facts themselves; persisted with each session. */
export interface ContextSettings {
  policies: VisibilityPolicies;
  /** transformContext: drop the facts before the latest compaction summary, as compaction intends. */
  applyCompaction: boolean;
}

export const DEFAULT_CONTEXT_SETTINGS: ContextSettings = {
  policies: DEFAULT_POLICIES,
  applyCompaction: true,
};

export const VISIBILITY_LABELS: Record<Visibility, string> = {
  hidden: "hidden",
  userText: "as user text",
};
