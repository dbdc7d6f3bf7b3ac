import { formatBytes } from "../../shared/bytes.ts";
import { truncationNote } from "../agent/recording/capture.ts";
import type { Captured } from "../storage/records.ts";
import { formatJson } from "../ui/format.ts";

/** A provider payload as the calls view shows it: its JSON text, its size, and what became of it. */
export type PayloadDisplay =
  | {
      /** The JSON to show and copy: all of it, or the start that was kept. */
      text: string;
      /** The payload's whole size, "12.3 kB", even when only its start was kept. */
      size: string;
      /** "truncated at N bytes of M" when only the start was kept. */
      truncated: string | undefined;
    }
  | { text: undefined; size: undefined; truncated: undefined; missing: string };

export function payloadDisplay(payload: Captured<unknown>): PayloadDisplay {
  switch (payload.kept) {
    case "all":
      return { text: formatJson(payload.value), size: formatBytes(payload.bytes), truncated: undefined };
    case "truncated":
      return { text: payload.text, size: formatBytes(payload.bytes), truncated: truncationNote(payload) };
    case "none":
      return { text: undefined, size: undefined, truncated: undefined, missing: payload.reason };
  }
}
