import type { AgentMessage } from "@earendil-works/pi-agent-core";

/**
 * Passes over a session's facts that a view of it makes when it is first shown, made ahead of that render
 * in a task of their own like the session's own passes (the chat's layout: 26 of the 97 ms of the first
 * render's task at 100,000 facts in a trace). A view adds its pass (once, as its module loads) and keeps
 * what it made for its render.
 */
export const viewPasses: ((facts: readonly AgentMessage[]) => void)[] = [];
