/**
 * The parts of an open session that run turns (its pi Agent's wrapper, with the gate, the queues and
 * the approvals, and the reply that streams), record calls and move on the session tree. ChatSession
 * loads this module while it reads the session's records from storage, so the page's first chunk does not
 * carry them and opening a session does not wait for them.
 */
export { CallRecorder } from "./recording/call-recorder.ts";
export { RunController } from "./run-controller.svelte.ts";
export { SessionAgent } from "./session-agent.svelte.ts";
export { SessionBranches } from "./session-branches.svelte.ts";
export { StreamingReply } from "./streaming-reply.svelte.ts";

export type SessionRuntime = typeof import("./session-runtime.ts");
