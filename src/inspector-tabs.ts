import type { InspectorTab, InspectorTabSpec } from "./lib/inspector/inspector-tab.ts";
import { LazyComponent } from "./lib/ui/lazy-component.svelte.ts";
import type { InspectorView } from "./lib/view-state/inspector-navigation.svelte.ts";

/**
 * The inspector's tabs, in order: one entry per view the inspector's navigation knows, so a view without a
 * tab, or a tab for no view, does not compile. Each view is its feature's own component, loaded when first
 * shown; the inspector itself knows none of them (features do not import each other), which is why they
 * are registered here, where the page is composed.
 */
function tabs(specs: { [View in InspectorView]: InspectorTabSpec }): readonly InspectorTab[] {
  return (Object.keys(specs) as InspectorView[]).map((id) => {
    const { label, load, prefetch } = specs[id];
    return { id, label, code: new LazyComponent(load), ...(prefetch ? { prefetch } : {}) };
  });
}

export const INSPECTOR_TABS = tabs({
  facts: { label: "Facts and model view", load: () => import("./lib/inspector/FactsView.svelte") },
  // The calls view is the one people go to next: fetched while the page is idle, so the first look at it
  // does not wait for it (it stays out of the initial JS).
  calls: { label: "Calls", load: () => import("./lib/calls/CallsView.svelte"), prefetch: true },
  tree: { label: "Tree", load: () => import("./lib/tree/TreeView.svelte") },
  anatomy: { label: "Anatomy", load: () => import("./lib/anatomy/AnatomyView.svelte") },
  replay: { label: "Replay", load: () => import("./lib/replays/ReplayView.svelte") },
  variants: { label: "Variants", load: () => import("./lib/variants/VariantsView.svelte") },
});
