import { contentText, type Tool } from "@earendil-works/pi-ai";
import { POLICY_ROLES } from "../../messages/types.ts";
import type { ModelCatalog } from "../../models/model-catalog.svelte.ts";
import type { RunController } from "../run-controller.svelte.ts";
import type { SessionSettingsState } from "../session-settings.svelte.ts";
import { sessionTools } from "../tools/tool-definitions.ts";
import type { Transcript } from "../transcript.svelte.ts";
import { columnContext, type ColumnSetup, type ColumnTurn } from "./variant-set.ts";

export interface UseVariantHost {
  transcript: Transcript;
  runs: RunController;
  settings: SessionSettingsState;
  catalog: ModelCatalog;
  /** A run is in progress here or in another tab. */
  busy: () => boolean;
  /** Why the session is read-only here (a live pi writes it), if it is. */
  readOnly: () => string | undefined;
  toolsNamed: (names: readonly string[]) => Promise<Tool[]>;
}

/**
 * Make a variant column the session's branch: back to the leaf the variants compare over, then the
 * column's facts appended there (each turn's tool declaration where its tools differ, its prompt, its
 * reply), so the branch the session was on stays in the tree and nothing is overwritten; then the
 * column's model, thinking level, sampling, policies and tools become the session's. The session's system
 * prompt is its first fact, shared by every branch, so it stays as it is; the answer says so when the
 * column's differed. Resolves with what could not be done, or undefined.
 */
export async function useVariant(
  host: UseVariantHost,
  baseLeafId: string | null,
  setup: ColumnSetup,
  turns: readonly ColumnTurn[],
): Promise<string | undefined> {
  const { transcript, runs, settings } = host;
  if (host.busy()) return "A run is in progress: use the variant once it is over.";
  const readOnly = host.readOnly();
  if (readOnly) return readOnly;
  if (baseLeafId !== null && !transcript.entry(baseLeafId))
    return "The fact these variants followed is no longer in the session.";
  await runs.whileIdle(() => transcript.moveLeaf(baseLeafId));
  if (transcript.leafId !== baseLeafId)
    return "The session could not go back to the fact these variants followed.";
  const tools = await host.toolsNamed(setup.tools);
  const facts = columnContext(transcript.context(), setup.systemPrompt, turns, tools).added.flat();
  await runs.whileIdle(() => void transcript.append(facts));
  const info = host.catalog.find(setup.model);
  if (info) await settings.setModel(info);
  await settings.setThinkingLevel(setup.thinkingLevel);
  await settings.setSampling(setup.sampling);
  for (const role of POLICY_ROLES) await settings.setPolicy(role, setup.policies[role]);
  await settings.setTools(
    sessionTools(settings.current.tools).map((tool) => ({
      ...tool,
      enabled: setup.tools.includes(tool.name),
    })),
  );
  const model = settings.current.model;
  if (!info && (setup.model.provider !== model.provider || setup.model.id !== model.id))
    return `The branch is made; the model ${setup.model.provider}/${setup.model.id} is not offered here now, so the session keeps its own.`;
  const first = transcript.facts[0];
  const prompt = first?.role === "system" ? contentText(first.content, "") : undefined;
  if (prompt !== undefined && setup.systemPrompt !== prompt)
    return "The branch is made; the session's system prompt is its first fact, shared by every branch, so it stays as it was (copy the column's to change it).";
  return undefined;
}
