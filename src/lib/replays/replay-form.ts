import type { ThinkingLevel } from "@earendil-works/pi-agent-core";
import type { Sampling } from "../../shared/sampling.ts";
import type { ReplayChanges } from "../agent/replay/replay-plan.ts";
import type { SessionSettings } from "../agent/session-settings.ts";
import type { Visibility } from "../messages/policies.ts";
import { POLICY_ROLES, type PolicyRole } from "../messages/types.ts";

/** The replay form as a person fills it in: every field starts as the session has it. */
export interface ReplayForm {
  policies: Record<PolicyRole, Visibility>;
  /** "provider/id". */
  model: string;
  thinkingLevel: ThinkingLevel;
  systemPrompt: string;
  /** As the shared sampling fields edit it (each value checked as it is typed). */
  sampling: Sampling;
  /** The session's tools, by name: offered during the replay or not. */
  tools: Record<string, boolean>;
  /** Entries the model does not read during the replay. */
  omit: string[];
}

export type ReplayFormField = "model";

export type ReplayFormResult =
  | { ok: true; changes: ReplayChanges }
  | { ok: false; problems: { field: ReplayFormField; message: string }[] };

/** What the session has now: the form's starting point, and what the changes are measured against. */
export interface ReplayBaseline {
  settings: SessionSettings;
  systemPrompt: string;
  /** The session's tools in order, and whether each is switched on. */
  tools: readonly { name: string; enabled: boolean }[];
}

export function seedForm(baseline: ReplayBaseline): ReplayForm {
  const { settings } = baseline;
  return {
    policies: { ...settings.context.policies },
    model: `${settings.model.provider}/${settings.model.id}`,
    thinkingLevel: settings.thinkingLevel,
    systemPrompt: baseline.systemPrompt,
    sampling: structuredClone(settings.sampling),
    tools: Object.fromEntries(baseline.tools.map((tool) => [tool.name, tool.enabled])),
    omit: [],
  };
}

/** The changes the form makes to the session, only those that differ; or what is wrong, by field. */
export function changesOf(form: ReplayForm, baseline: ReplayBaseline): ReplayFormResult {
  const { settings } = baseline;
  const problems: { field: ReplayFormField; message: string }[] = [];
  const changes: ReplayChanges = {};

  const policies: Partial<Record<PolicyRole, Visibility>> = {};
  for (const role of POLICY_ROLES)
    if (form.policies[role] !== settings.context.policies[role]) policies[role] = form.policies[role];
  if (Object.keys(policies).length > 0) changes.policies = policies;

  const model = form.model.trim();
  const slash = model.indexOf("/");
  if (slash <= 0 || slash === model.length - 1)
    problems.push({ field: "model", message: 'Name the model as provider/id, as in "mirror/mirror".' });
  else {
    const ref = { provider: model.slice(0, slash), id: model.slice(slash + 1) };
    if (ref.provider !== settings.model.provider || ref.id !== settings.model.id) changes.model = ref;
  }
  if (form.thinkingLevel !== settings.thinkingLevel) changes.thinkingLevel = form.thinkingLevel;
  if (form.systemPrompt !== baseline.systemPrompt) changes.systemPrompt = form.systemPrompt;

  if (!sameSampling(form.sampling, settings.sampling)) changes.sampling = structuredClone(form.sampling);

  const offered = baseline.tools.filter((tool) => form.tools[tool.name] === true).map((tool) => tool.name);
  const before = baseline.tools.filter((tool) => tool.enabled).map((tool) => tool.name);
  if (offered.join("\n") !== before.join("\n")) changes.tools = offered;
  if (form.omit.length > 0) changes.omit = [...form.omit];

  return problems.length > 0 ? { ok: false, problems } : { ok: true, changes };
}

function sameSampling(a: Sampling, b: Sampling): boolean {
  const params = (sampling: Sampling) =>
    Object.entries(sampling.params ?? {}).sort(([x], [y]) => x.localeCompare(y));
  return (
    a.temperature === b.temperature &&
    a.maxTokens === b.maxTokens &&
    JSON.stringify(params(a)) === JSON.stringify(params(b))
  );
}
