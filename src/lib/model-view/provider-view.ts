import type { Api, Message, Model } from "@earendil-works/pi-ai";
import type { ProviderView } from "./provider-changes.ts";
import { applyProviderTransform } from "./provider-transform.ts";
import { traceProviderTransform } from "./provider-trace.ts";

/** The provider view of `messages` (a model view) for `model`, through the transform of `model.api`'s adapter. */
export function providerView(messages: readonly Message[], model: Model<Api>): ProviderView {
  return traceProviderTransform(messages, applyProviderTransform(messages, model));
}
