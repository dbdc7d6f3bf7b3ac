import { describe, expect, it } from "vitest";
import { createNotification, createUserMessage } from "../messages/factories.ts";
import { DEFAULT_CONTEXT_SETTINGS } from "../messages/policies.ts";
import { projectFacts } from "../model-view/project.ts";
import { createSystemFact } from "../agent/new-session.ts";
import { FactSelection } from "./fact-selection.svelte.ts";

// Facts: 0 system, 1 user, 2 notification (hidden by default), 3 user.
const facts = [
  createSystemFact("prompt"),
  createUserMessage("one", 1),
  createNotification("done", "info", 2),
  createUserMessage("two", 3),
];
const view = projectFacts(facts, DEFAULT_CONTEXT_SETTINGS);

describe("fact selection shared by chat and inspector", () => {
  it("a fact chosen in the inspector reveals its model message and its chat message", () => {
    const selection = new FactSelection(() => view);
    selection.selectFact(3);
    expect(selection.selectedFact).toBe(3);
    expect(selection.selectedModel).toBe(2);
    expect(selection.revealModel?.index).toBe(2);
    expect(selection.revealChat?.index).toBe(3);
  });

  it("a model message reveals its source fact in the list and in the chat", () => {
    const selection = new FactSelection(() => view);
    selection.selectModel(1);
    expect(selection.selectedFact).toBe(1);
    expect(selection.revealFact?.index).toBe(1);
    expect(selection.revealChat?.index).toBe(1);
  });

  it("a message chosen in the chat reveals its fact; one hidden from the model has no counterpart", () => {
    const selection = new FactSelection(() => view);
    selection.selectFromChat(2);
    expect(selection.revealFact?.index).toBe(2);
    expect(selection.selectedModel).toBe(-1);
    expect(selection.revealModel).toBeUndefined();
    expect(selection.revealChat).toBeUndefined();
  });

  it("asking twice for the same reveal is a new request", () => {
    const selection = new FactSelection(() => view);
    selection.selectFact(1);
    const first = selection.revealChat;
    selection.showSelectedInChat();
    expect(selection.revealChat?.index).toBe(1);
    expect(selection.revealChat?.nonce).not.toBe(first?.nonce);
  });
});
