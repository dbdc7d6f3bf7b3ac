import type { ModelInfo } from "../../shared/api-types.ts";

export interface ProviderGroup {
  provider: string;
  providerName: string;
  models: ModelInfo[];
}

/** Models whose name, id or provider contains every word of the query (case-insensitive). */
export function filterModels(models: readonly ModelInfo[], query: string): ModelInfo[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return models.slice();
  return models.filter((model) => {
    const haystack = `${model.name} ${model.id} ${model.providerName} ${model.provider}`.toLowerCase();
    return words.every((word) => haystack.includes(word));
  });
}

/** Group by provider, keeping the order the server sorted them in. */
export function groupByProvider(models: readonly ModelInfo[]): ProviderGroup[] {
  const groups = new Map<string, ProviderGroup>();
  for (const model of models) {
    let group = groups.get(model.provider);
    if (!group) {
      group = { provider: model.provider, providerName: model.providerName, models: [] };
      groups.set(model.provider, group);
    }
    group.models.push(model);
  }
  return [...groups.values()];
}

export function formatContextWindow(tokens: number): string {
  if (tokens >= 1_000_000) return `${Number((tokens / 1_000_000).toFixed(1))}M`;
  if (tokens >= 1_000) return `${Math.round(tokens / 1_000)}k`;
  return String(tokens);
}

/** "$3 / $15 per M tokens", "free", or nothing when the catalog has no price. */
export function formatPrice(cost: ModelInfo["cost"], offline: boolean): string {
  if (offline) return "free, offline";
  if (cost.input === 0 && cost.output === 0) return "price unknown";
  const money = (value: number) => `$${Number(value.toFixed(2))}`;
  return `${money(cost.input)} in / ${money(cost.output)} out per M tokens`;
}
