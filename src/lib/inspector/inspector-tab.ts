import type { Component } from "svelte";
import type { ChatSession } from "../agent/chat-session.svelte.ts";
import type { LazyComponent } from "../ui/lazy-component.svelte.ts";
import type { FactSelection } from "../view-state/fact-selection.svelte.ts";
import type { InspectorView } from "../view-state/inspector-navigation.svelte.ts";

/** What the inspector gives every tab's view. */
export interface InspectorTabProps {
  session: ChatSession;
  selection: FactSelection;
  /** Show a fact (by its entry) in the facts list. */
  onselectfact: (entryId: string) => void;
}

/** One of the inspector's tabs: its view's code loads when the tab is first shown (or while idle, ahead). */
export interface InspectorTab {
  id: InspectorView;
  label: string;
  code: LazyComponent<Component<InspectorTabProps>>;
  /** Fetch its code while the page is idle once the inspector is open: a tab people go to next. */
  prefetch?: boolean;
}

/** A tab as registered: its label and where its view's code comes from. */
export interface InspectorTabSpec {
  label: string;
  load: () => Promise<{ default: Component<InspectorTabProps> }>;
  prefetch?: boolean;
}
