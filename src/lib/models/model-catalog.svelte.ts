import type { ModelInfo, ModelsResponse } from "../../shared/api-types.ts";
import { sameModel, type ModelRef } from "./model-ref.ts";

/** The models the proxy can serve, as `/api/models` lists them. */
export class ModelCatalog {
  #models = $state.raw<ModelInfo[]>([]);
  #warnings = $state.raw<string[]>([]);
  #error = $state<string | undefined>(undefined);
  #loading = $state(false);

  get models(): readonly ModelInfo[] {
    return this.#models;
  }
  get warnings(): readonly string[] {
    return this.#warnings;
  }
  get error(): string | undefined {
    return this.#error;
  }
  get loading(): boolean {
    return this.#loading;
  }

  find(ref: ModelRef): ModelInfo | undefined {
    return this.#models.find((model) => sameModel(model, ref));
  }

  async load(origin: string): Promise<void> {
    this.#loading = true;
    try {
      const response = await fetch(`${origin}/api/models`, { headers: { Accept: "application/json" } });
      if (!response.ok) throw new Error(`the proxy answered ${response.status} ${response.statusText}`);
      const body = (await response.json()) as ModelsResponse;
      this.#models = body.models;
      this.#warnings = body.warnings;
      this.#error = undefined;
    } catch (error) {
      this.#error = `Could not list models: ${(error as Error).message}. Offline mirror models still work if the proxy is up.`;
    } finally {
      this.#loading = false;
    }
  }
}
