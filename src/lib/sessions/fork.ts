import { contentText } from "@earendil-works/pi-ai";
import type { AgentMessage } from "@earendil-works/pi-agent-core";

/**
 * A starting point for the summary a fork leaves on the main line: what the person asked on the branch.
 * pi would have a model write it; here the person edits it before it is added.
 */
export function branchSummaryDraft(facts: readonly AgentMessage[], forkIndex: number): string {
  const asked = facts.slice(forkIndex + 1).flatMap((fact) => {
    if (fact.role !== "user") return [];
    const text = contentText(fact.content, " ");
    return text.trim() ? [text.replace(/\s+/g, " ").trim()] : [];
  });
  if (asked.length === 0) return "On the branch: nothing was tried.";
  return `On the branch we asked: ${asked.map((text) => `“${text}”`).join("; ")}.`;
}
