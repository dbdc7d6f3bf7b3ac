import type { ModelInfo, ModelsResponse } from "../../shared/api-types.ts";
import { sameModel, type ModelRef } from "./model-ref.ts";

/** Where the list comes from: the proxy in use, or the offline models answered in the page. */
export interface ModelSource {
  listModels(): Promise<ModelsResponse>;
}

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

  async load(source: ModelSource): Promise<void> {
    this.#loading = true;
    try {
      const body = await source.listModels();
      this.#models = body.models;
      this.#warnings = body.warnings;
      this.#error = undefined;
    } catch (error) {
      this.#error = `Could not list models: ${(error as Error).message}.`;
    } finally {
      this.#loading = false;
    }
  }
}
