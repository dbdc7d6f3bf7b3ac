/**
 * The parts an open session is made of: its transcript, settings, writer, replica and events, and those
 * that run turns (its pi Agent's wrapper, with the gate, the queues and the approvals, and the reply that
 * streams), record calls and move on the session tree. ChatSession loads this module while it reads the
 * session's records from storage, so the page's first chunk does not carry them and opening a session
 * does not wait for them.
 */
export { SessionWriter } from "../storage/session-writer.ts";
export { CallRecorder } from "./recording/call-recorder.ts";
export { Replica } from "./replica.svelte.ts";
export { RunController } from "./run-controller.svelte.ts";
export { SessionAgent } from "./session-agent.svelte.ts";
export { SessionBranches } from "./session-branches.svelte.ts";
export { SessionEvents } from "./session-events.ts";
export { SessionMetaState } from "./session-meta.svelte.ts";
export { SessionSettingsState } from "./session-settings.svelte.ts";
export { StreamingReply } from "./streaming-reply.svelte.ts";
export { Transcript } from "./transcript.svelte.ts";
export { indexInSlices } from "./transcript-index.ts";

export type SessionRuntime = typeof import("./session-runtime.ts");
