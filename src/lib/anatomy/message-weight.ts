import type { Message } from "@earendil-works/pi-ai";
import { getSystemMessageText } from "@earendil-works/pi-ai/utils/text";
import { CATEGORIES, userTextCategory, type Category } from "./categories.ts";

/**
 * Messages measured in characters, category by category, the way pi-ai's estimator measures them (an
 * image as 4,800 characters), with pi-ai's token estimate of each: what a composition splits its total by.
 */

const IMAGE_CHARS = 4_800;
/** pi-ai's estimator: characters per token. */
const CHARS_PER_TOKEN = 3.5;

function jsonChars(value: unknown): number {
  try {
    return (JSON.stringify(value) ?? "undefined").length;
  } catch {
    return "[unserializable]".length;
  }
}

function toolsChars(tools: readonly unknown[] | undefined): number {
  return tools && tools.length > 0 ? jsonChars(tools) : 0;
}

/**
 * Where one message's characters go, and pi-ai's estimate of it. Written into flat arrays by
 * `Weigher`, so that composing 10,000 messages allocates next to nothing.
 */
export class Weigher {
  categories: Uint8Array;
  messages: Int32Array;
  chars: Float64Array;
  blocks: Int32Array;
  count = 0;

  constructor(capacity: number) {
    this.categories = new Uint8Array(capacity);
    this.messages = new Int32Array(capacity);
    this.chars = new Float64Array(capacity);
    this.blocks = new Int32Array(capacity);
  }

  #add(message: number, category: number, chars: number): void {
    // Blocks of one category in one message are one part (a reply's two text blocks are one share).
    const last = this.count - 1;
    if (last >= 0 && this.messages[last] === message && this.categories[last] === category) {
      this.chars[last] = (this.chars[last] ?? 0) + chars;
      this.blocks[last] = (this.blocks[last] ?? 0) + 1;
      return;
    }
    if (this.count === this.categories.length) this.#grow();
    this.categories[this.count] = category;
    this.messages[this.count] = message;
    this.chars[this.count] = chars;
    this.blocks[this.count] = 1;
    this.count++;
  }

  #grow(): void {
    const size = Math.max(16, this.categories.length * 2);
    const grow = <T extends Uint8Array | Int32Array | Float64Array>(array: T, make: (n: number) => T): T => {
      const next = make(size);
      next.set(array);
      return next;
    };
    this.categories = grow(this.categories, (n) => new Uint8Array(n));
    this.messages = grow(this.messages, (n) => new Int32Array(n));
    this.chars = grow(this.chars, (n) => new Float64Array(n));
    this.blocks = grow(this.blocks, (n) => new Int32Array(n));
  }

  /** Weigh one message; returns pi-ai's estimate of it (`estimateMessageTokens`, from the same characters). */
  weigh(index: number, message: Message, sourceRole: string | undefined): number {
    switch (message.role) {
      case "system": {
        const text = getSystemMessageText(message).length;
        const added = toolsChars(message.toolsAdded);
        const removed = toolsChars(message.toolsRemoved);
        this.#add(index, CATEGORY_INDEX.system, text);
        const tools = (message.toolsAdded?.length ?? 0) + (message.toolsRemoved?.length ?? 0);
        if (tools > 0) {
          this.#add(index, CATEGORY_INDEX.tools, added + removed);
          this.blocks[this.count - 1] = tools;
        }
        return (
          Math.ceil(text / CHARS_PER_TOKEN) +
          Math.ceil(added / CHARS_PER_TOKEN) +
          Math.ceil(removed / CHARS_PER_TOKEN)
        );
      }
      case "user":
      case "toolResult": {
        const textCategory =
          CATEGORY_INDEX[message.role === "toolResult" ? "toolResults" : userTextCategory(sourceRole)];
        const content = message.content as Message["content"] | undefined;
        let chars = 0;
        if (typeof content === "string") {
          this.#add(index, textCategory, content.length);
          chars = content.length;
        } else if (Array.isArray(content))
          for (const part of content) {
            if (part.type === "image") {
              this.#add(index, CATEGORY_INDEX.images, IMAGE_CHARS);
              chars += IMAGE_CHARS;
            } else if (part.type === "text") {
              this.#add(index, textCategory, part.text.length);
              chars += part.text.length;
            }
          }
        return Math.ceil(chars / CHARS_PER_TOKEN);
      }
      case "assistant": {
        let chars = 0;
        for (const part of message.content) {
          let size = 0;
          if (part.type === "text") {
            size = part.text.length;
            this.#add(index, CATEGORY_INDEX.assistantText, size);
          } else if (part.type === "thinking") {
            size = part.thinking.length;
            this.#add(index, CATEGORY_INDEX.thinking, size);
          } else if (part.type === "toolCall") {
            size = part.name.length + jsonChars(part.arguments);
            this.#add(index, CATEGORY_INDEX.toolCalls, size);
          }
          chars += size;
        }
        return Math.ceil(chars / CHARS_PER_TOKEN);
      }
      default:
        return 0;
    }
  }
}

const CATEGORY_INDEX = Object.fromEntries(CATEGORIES.map((category, index) => [category, index])) as Record<
  Category,
  number
>;
