import { describe, expect, it } from "vitest";
import { Notices } from "./notices.svelte.ts";

describe("Notices", () => {
  it("clears the reports on what the person just did, and keeps every other notice", () => {
    const notices = new Notices();
    notices.post({
      key: "export:a",
      severity: "info",
      source: "sessions",
      text: "Exported",
      transient: true,
    });
    notices.post({ key: "storage", severity: "warning", source: "storage", text: "Storage is full" });
    notices.post({ key: "import:problem", severity: "error", source: "import", text: "x", transient: true });
    notices.clearTransient();
    expect(notices.items.map((notice) => notice.key)).toEqual(["storage"]);
  });

  it("replaces a notice posted again under its key, in place", () => {
    const notices = new Notices();
    notices.post({ key: "a", severity: "info", source: "session", text: "one" });
    notices.post({ key: "b", severity: "info", source: "session", text: "two" });
    notices.post({ key: "a", severity: "error", source: "session", text: "three" });
    expect(notices.items.map((notice) => notice.text)).toEqual(["three", "two"]);
  });
});
