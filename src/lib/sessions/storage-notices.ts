import { formatBytes } from "../../shared/bytes.ts";
import { countOf } from "../../shared/count-of.ts";
import type { Notice } from "../notices/notices.svelte.ts";
import type { StorageError } from "../storage/session-store.ts";
import type { WriterStatus } from "../storage/session-writer.ts";
import type { StorageInfo, UnsavedActions } from "./storage-info.ts";

/** What a session could not store, and what to do about it, as one notice. */
export function unsavedNotice(
  key: string,
  title: string,
  status: WriterStatus,
  error: StorageError,
  info: StorageInfo | undefined,
  actions: UnsavedActions,
): Notice {
  const usage =
    error.kind === "quota" && info
      ? ` ${formatBytes(info.usage)} of ${formatBytes(info.quota)} are used.`
      : "";
  const kept =
    error.kind === "unstorable"
      ? ` ${countOf(status.unsaved, "unsaved change")} of “${title}” ${status.unsaved === 1 ? "is" : "are"} kept in this tab only; retrying will not help, export the session to keep ${status.unsaved === 1 ? "it" : "them"}.`
      : ` ${countOf(status.unsaved, "unsaved change")} ${status.unsaved === 1 ? "is" : "are"} kept in this tab and retried automatically; what was stored before stays readable.`;
  const advice =
    error.kind === "quota"
      ? " Free space by exporting this session and deleting old ones in the sessions list."
      : "";
  return {
    key,
    severity: "error",
    source: "storage",
    persistent: true,
    text: `${error.message}${usage}${kept}${advice}`,
    actions: [
      { label: "Export this session", run: actions.exportSession },
      ...(error.kind === "unstorable" ? [] : [{ label: "Retry saving now", run: actions.retry }]),
    ],
  };
}

/** Another tab upgraded the database: this one can no longer save. */
export function versionNotice(reload: () => void): Notice {
  return {
    key: "storage:version",
    severity: "error",
    source: "storage",
    persistent: true,
    text: "A newer version of the playground opened in another tab and upgraded the stored sessions. Reload this tab to keep working; changes made here from now on cannot be saved.",
    actions: [{ label: "Reload", run: reload }],
  };
}

/** Our upgrade waits for a tab running an older version. */
export function blockedNotice(): Notice {
  return {
    key: "storage:blocked",
    severity: "warning",
    source: "storage",
    text: "Another tab runs an older version of the playground and keeps the stored sessions open. Close or reload it; this tab continues as soon as it lets go.",
  };
}
