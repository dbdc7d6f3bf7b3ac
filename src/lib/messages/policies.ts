import type { Visibility, VisibilityPolicies } from "./kinds/kind.ts";
import type { PolicyRole } from "./types.ts";

export type { Visibility, VisibilityPolicies };

/** A new session's policies: the tutorial's default, hidden (each policy kind names its default here). */
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

/** Each policy's role in words, wherever a policy is chosen. */
export const POLICY_ROLE_LABELS: Record<PolicyRole, string> = {
  notification: "Notifications",
  approval_request: "Approval requests",
  progress: "Progress",
};
