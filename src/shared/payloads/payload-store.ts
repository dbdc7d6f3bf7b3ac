import { captureJson, storedBytes, type JsonReplacer, type StoredPayload } from "./captured-json.ts";

/** How much of the provider payloads is kept, and for how long. */
export interface PayloadLimits {
  /** Per payload: beyond it, the first bytes of its JSON are kept as text. */
  maxPayloadBytes: number;
  /** All payloads together: past it, the oldest are dropped first. 0 keeps none (capture is off). */
  maxStoreBytes: number;
  /** A payload is dropped this long after it was kept. */
  ttlMs: number;
}

export const DEFAULT_PAYLOAD_LIMITS: PayloadLimits = {
  maxPayloadBytes: 2 * 1024 * 1024,
  maxStoreBytes: 64 * 1024 * 1024,
  ttlMs: 10 * 60 * 1000,
};

/** Which model a call went to, so that the reader can say where that provider takes requests. */
export interface CallModel {
  provider: string;
  modelId: string;
}

/** A call as the store holds it: still waiting for its payload, or settled with one (or a reason). */
export interface PayloadEntry {
  model: CallModel;
  payload: StoredPayload | undefined;
}

interface Slot extends PayloadEntry {
  at: number;
  size: number;
}

/** Bookkeeping counted per call besides its payload, so that calls without one cannot pile up for free. */
const ENTRY_OVERHEAD_BYTES = 256;

/**
 * The provider payloads of recent calls, by call id, in memory and bounded: each payload by its own limit,
 * all of them by a total (the oldest go first) and by age. The proxy keeps a call's payload from the
 * moment the adapter builds it until the page asks for it; nothing here ever waits or throws into a stream.
 */
export class PayloadStore {
  readonly limits: PayloadLimits;
  readonly #now: () => number;
  /** In the order entries were last written, which is also the order they expire in. */
  readonly #slots = new Map<string, Slot>();
  #bytes = 0;

  constructor(limits: PayloadLimits = DEFAULT_PAYLOAD_LIMITS, now: () => number = Date.now) {
    this.limits = limits;
    this.#now = now;
  }

  /** False when the operator turned capture off (a total of 0 bytes). */
  get enabled(): boolean {
    return this.limits.maxStoreBytes > 0;
  }

  /** Bytes held now, bookkeeping included. */
  get bytes(): number {
    this.#expire();
    return this.#bytes;
  }

  get size(): number {
    this.#expire();
    return this.#slots.size;
  }

  /** A call started: until its payload arrives, a reader learns that it is still being built. */
  begin(callId: string, model: CallModel): void {
    this.#put(callId, { model, payload: undefined });
  }

  /** The adapter built its request body: serialize it now (exactly what is sent), within the limits. */
  keep(callId: string, model: CallModel, payload: unknown, replacer?: JsonReplacer): void {
    this.#put(callId, { model, payload: captureJson(payload, this.limits.maxPayloadBytes, replacer) });
  }

  /** The call ended without a payload: say why, unless one was kept meanwhile. */
  settle(callId: string, reason: string): void {
    const slot = this.#slots.get(callId);
    if (!slot || slot.payload !== undefined) return;
    this.#put(callId, { model: slot.model, payload: { kept: "none", bytes: 0, reason } });
  }

  /** The call as kept, or undefined when it is unknown, expired or was dropped for room. */
  read(callId: string): PayloadEntry | undefined {
    this.#expire();
    const slot = this.#slots.get(callId);
    return slot ? { model: slot.model, payload: slot.payload } : undefined;
  }

  #put(callId: string, entry: PayloadEntry): void {
    if (!this.enabled) return;
    this.#drop(callId);
    const size = ENTRY_OVERHEAD_BYTES + callId.length + (entry.payload ? storedBytes(entry.payload) : 0);
    let payload = entry.payload;
    if (size > this.limits.maxStoreBytes) {
      // Larger than everything the store may hold: keep the reason rather than emptying the store for it.
      payload = {
        kept: "none",
        bytes: payload?.bytes ?? 0,
        reason: `it is larger than the proxy keeps of all payloads together (MAX_PAYLOAD_STORE_BYTES, ${this.limits.maxStoreBytes} bytes)`,
      };
    }
    const slot: Slot = {
      model: entry.model,
      payload,
      at: this.#now(),
      size: ENTRY_OVERHEAD_BYTES + callId.length + (payload ? storedBytes(payload) : 0),
    };
    this.#slots.set(callId, slot);
    this.#bytes += slot.size;
    this.#expire();
    // Oldest first, never the entry just written.
    for (const [id] of this.#slots) {
      if (this.#bytes <= this.limits.maxStoreBytes || id === callId) break;
      this.#drop(id);
    }
  }

  #drop(callId: string): void {
    const slot = this.#slots.get(callId);
    if (!slot) return;
    this.#slots.delete(callId);
    this.#bytes -= slot.size;
  }

  /** Entries are in write order, so the expired ones are at the front. */
  #expire(): void {
    const oldest = this.#now() - this.limits.ttlMs;
    for (const [id, slot] of this.#slots) {
      if (slot.at > oldest) break;
      this.#drop(id);
    }
  }
}
