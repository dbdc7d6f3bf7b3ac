import type { FileShape } from "./redaction.ts";

/** A file an export produces, before redaction: its name, text, media type and layout. */
export interface ExportFile {
  fileName: string;
  text: string;
  type: string;
  shape: FileShape;
  /**
   * What is saved, made from the redacted text (the HTML export wraps the redacted JSON export in its
   * page); the text itself when absent.
   */
  finish?: (redacted: string) => Promise<string>;
}

/** Offer text as a file download, without a server round trip. */
export function downloadText(fileName: string, text: string, type = "application/json"): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.rel = "noopener";
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
