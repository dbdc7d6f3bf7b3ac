import type { AgentMessage, ThinkingLevel } from "@earendil-works/pi-agent-core";
import type { ModelInfo } from "../../shared/api-types.ts";
import type { Visibility } from "../messages/policies.ts";
import type { PolicyRole } from "../messages/types.ts";
import type { Notices } from "../notices/notices.svelte.ts";
import { thinkingLevelFor } from "../models/model-ref.ts";
import type { SessionMeta } from "../storage/records.ts";
import type { SessionStore } from "../storage/session-store.ts";
import type { Sampling } from "../../shared/sampling.ts";
import type { ToolDefinition } from "./tools/tool-definitions.ts";
import { readSettings, type QueueMode, type QueueModes, type SessionSettings } from "./session-settings.ts";

export interface SettingsHost {
  store: SessionStore;
  sessionId: string;
  notices: Notices;
  /** The settings were stored: the rest of the session (and other tabs) follow the new metadata. */
  onStored: (meta: SessionMeta) => void;
}

/**
 * A session's settings: model, thinking level, context policies, tool approvals and the messages held for
 * the next turn. The only writer of them; each change applies at once and is stored in the session's
 * metadata record (a failure to store is said, and the change still applies until the page closes).
 */
export class SessionSettingsState {
  readonly #host: SettingsHost;
  #settings = $state.raw<SessionSettings>() as SessionSettings;

  constructor(host: SettingsHost, stored: unknown) {
    this.#host = host;
    this.#settings = readSettings(stored);
  }

  get current(): SessionSettings {
    return this.#settings;
  }

  get nextTurn(): readonly AgentMessage[] {
    return this.#settings.nextTurn;
  }

  /** Another tab changed them: take its version without storing it again. */
  adopt(stored: unknown): void {
    this.#settings = readSettings(stored);
  }

  setPolicy(role: PolicyRole, visibility: Visibility): Promise<void> {
    const context = {
      ...this.#settings.context,
      policies: { ...this.#settings.context.policies, [role]: visibility },
    };
    return this.#save({ ...this.#settings, context });
  }

  setApplyCompaction(apply: boolean): Promise<void> {
    return this.#save({ ...this.#settings, context: { ...this.#settings.context, applyCompaction: apply } });
  }

  setToolApproval(toolName: string, required: boolean): Promise<void> {
    return this.#save({
      ...this.#settings,
      toolApprovals: { ...this.#settings.toolApprovals, [toolName]: required },
    });
  }

  /** Switch model, keeping the thinking level where the new model supports it. */
  setModel(info: ModelInfo): Promise<void> {
    const thinkingLevel = thinkingLevelFor(info, this.#settings.thinkingLevel);
    return this.#save({ ...this.#settings, model: { provider: info.provider, id: info.id }, thinkingLevel });
  }

  setThinkingLevel(level: ThinkingLevel): Promise<void> {
    return this.#save({ ...this.#settings, thinkingLevel: level });
  }

  setQueueMode(queue: keyof QueueModes, mode: QueueMode): Promise<void> {
    return this.#save({ ...this.#settings, queueModes: { ...this.#settings.queueModes, [queue]: mode } });
  }

  /** The sampling of the calls from now on (each field unset leaves the provider's default). */
  setSampling(sampling: Sampling): Promise<void> {
    return this.#save({ ...this.#settings, sampling });
  }

  /** The session's tools from the next run on (pi declares what changed before the next call). */
  setTools(tools: readonly ToolDefinition[]): Promise<void> {
    return this.#save({ ...this.#settings, tools: tools.map((tool) => structuredClone(tool)) });
  }

  holdForNextTurn(message: AgentMessage): Promise<void> {
    return this.#save({ ...this.#settings, nextTurn: [...this.#settings.nextTurn, message] });
  }

  /** Hand over the held messages (they go out with the next prompt) and forget them. */
  takeNextTurn(): AgentMessage[] {
    const held = this.#settings.nextTurn;
    if (held.length > 0) void this.#save({ ...this.#settings, nextTurn: [] });
    return held.slice();
  }

  removeHeld(index: number): Promise<void> {
    return this.#save({
      ...this.#settings,
      nextTurn: this.#settings.nextTurn.filter((_, position) => position !== index),
    });
  }

  clearHeld(): Promise<void> {
    if (this.#settings.nextTurn.length === 0) return Promise.resolve();
    return this.#save({ ...this.#settings, nextTurn: [] });
  }

  async #save(settings: SessionSettings): Promise<void> {
    this.#settings = settings;
    const key = `settings:${this.#host.sessionId}`;
    try {
      const meta = await this.#host.store.updateMeta(this.#host.sessionId, { settings });
      this.#host.notices.dismiss(key);
      this.#host.onStored(meta);
    } catch (error) {
      this.#host.notices.post({
        key,
        severity: "warning",
        source: "session",
        text: `The setting applies now but was not saved: ${(error as Error).message}`,
      });
    }
  }
}
