export type CopyStatus = "idle" | "copied" | "failed";

/** Writes text to the clipboard and says, for a moment, whether it worked. */
export class CopyFeedback {
  readonly #write: (text: string) => Promise<void>;
  readonly #showFor: number;
  #status = $state<CopyStatus>("idle");
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    write: (text: string) => Promise<void> = (text) => navigator.clipboard.writeText(text),
    showFor = 2_000,
  ) {
    this.#write = write;
    this.#showFor = showFor;
  }

  get status(): CopyStatus {
    return this.#status;
  }

  async copy(text: string): Promise<void> {
    try {
      await this.#write(text);
      this.#set("copied");
    } catch {
      // Clipboard access refused (permissions, an insecure origin): say so rather than pretend.
      this.#set("failed");
    }
  }

  #set(status: CopyStatus): void {
    this.#status = status;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => (this.#status = "idle"), this.#showFor);
  }
}
