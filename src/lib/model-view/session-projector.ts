import type { AgentMessage } from "@earendil-works/pi-agent-core";
import type { SessionEntry } from "../messages/entries.ts";
import {
  factOf,
  identityPositions,
  IN,
  projectSession,
  recordExtension,
  type SessionProjection,
} from "./session-projection.ts";

// Apart from the projection itself: only the transcript keeps a projection up to date as its session grows,
// and it loads with the session's runtime, not with the page.

/**
 * Projects a session's path again after each change, cheaply when the path only grew: appended entries
 * that are not compactions or context edits add their facts at the end and change nothing before them,
 * so the new projection is the previous one plus theirs. Anything else (another branch, a replaced
 * entry, a compaction, an edit) is projected in full. Either way the result equals `projectSession`.
 */
export class SessionProjector {
  #path: readonly SessionEntry[] = [];
  #applyCompaction = true;
  #projection: SessionProjection | undefined;
  /** Every entry a context edit on the path targets (an entry appended later must not be one). */
  #editTargets = new Set<string>();

  project(path: readonly SessionEntry[], { applyCompaction = true } = {}): SessionProjection {
    const previous = this.#projection;
    if (previous && path === this.#path && applyCompaction === this.#applyCompaction) return previous;
    let next =
      previous && applyCompaction === this.#applyCompaction ? this.#extend(previous, path) : undefined;
    if (!next) {
      next = projectSession(path, { applyCompaction });
      this.#editTargets = new Set(
        path.flatMap((entry) => (entry.type === "context_edit" ? [entry.targetId] : [])),
      );
    }
    this.#path = path;
    this.#applyCompaction = applyCompaction;
    this.#projection = next;
    return next;
  }

  #extend(previous: SessionProjection, path: readonly SessionEntry[]): SessionProjection | undefined {
    const before = this.#path;
    if (path.length < before.length) return undefined;
    // The old path must be the new one's beginning, entry for entry (a replaced entry is a new object).
    for (let index = before.length - 1; index >= 0; index--)
      if (path[index] !== before[index]) return undefined;
    const added = path.slice(before.length);
    if (added.some((entry) => entry.type === "compaction" || entry.type === "context_edit")) return undefined;
    if (added.some((entry) => this.#editTargets.has(entry.id))) return undefined;

    // The new facts are gathered apart and joined to the old arrays once: copying an array of 100,000
    // facts costs milliseconds, and a copy that is then pushed to is copied again as it grows.
    const newFacts: AgentMessage[] = [];
    const newIds: string[] = [];
    const newContextFacts: number[] = [];
    const newMarkers: SessionProjection["markers"][number][] = [];
    let { model, thinkingLevel } = previous;
    for (const entry of added) {
      if (entry.type === "thinking_level_change") thinkingLevel = entry.thinkingLevel;
      else if (entry.type === "model_change") model = { provider: entry.provider, modelId: entry.modelId };
      else if (entry.type === "message" && entry.message.role === "assistant")
        model = { provider: entry.message.provider, modelId: entry.message.model };
      const fact = factOf(entry);
      if (!fact) {
        newMarkers.push({ entry, afterFact: previous.facts.length + newFacts.length - 1 });
        continue;
      }
      newContextFacts.push(previous.facts.length + newFacts.length);
      newFacts.push(fact);
      newIds.push(entry.id);
    }
    const facts = previous.facts.concat(newFacts);
    const factIds = previous.factIds.concat(newIds);
    const fates = previous.fates.concat(newFacts.map(() => IN));
    const markers = newMarkers.length > 0 ? previous.markers.concat(newMarkers) : previous.markers;
    // A context that was the facts stays them: the same facts are appended to both.
    const contextIsFacts = previous.context === previous.facts;
    const context = contextIsFacts ? facts : previous.context.concat(newFacts);
    let contextFacts: Int32Array;
    if (contextIsFacts) contextFacts = identityPositions(facts.length);
    else {
      contextFacts = new Int32Array(previous.contextFacts.length + newContextFacts.length);
      contextFacts.set(previous.contextFacts);
      contextFacts.set(newContextFacts, previous.contextFacts.length);
    }
    const next: SessionProjection = {
      facts,
      factIds,
      fates,
      context,
      contextFacts,
      markers,
      model,
      thinkingLevel,
    };
    recordExtension(next, {
      from: previous,
      factsFrom: previous.facts.length,
      contextFrom: previous.context.length,
    });
    return next;
  }
}
