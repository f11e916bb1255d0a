import { describe, expect, it } from "vitest";
import { noticeFor } from "~/services/retention/expiry-notices.server";

const options = { now: new Date("2026-11-26T12:00:00Z"), appName: "Evidence Locker", appUrl: "https://stash.example", send: async () => {} };
const file = (name: string, day: string) => ({ original_filename: name, expires_at: new Date(`${day}T08:00:00Z`) });

describe("noticeFor: the mail about files expiring soon", () => {
  it("names one file and the day it goes", () => {
    const notice = noticeFor("jo@example.com", [file("booking.png", "2026-11-28")], options);
    expect(notice.to).toBe("jo@example.com");
    expect(notice.subject).toBe("1 file on Evidence Locker will be deleted soon");
    expect(notice.text).toContain("A file in your Evidence Locker account will be deleted by the retention policy, the first on 28 Nov 2026:");
    expect(notice.text).toContain("- booking.png (deleted after 28 Nov 2026)");
    expect(notice.text).toContain("https://stash.example/gallery");
    expect(notice.text).toContain("https://stash.example/billing");
  });

  it("counts several files, starts from the soonest whatever the order, and lists ten", () => {
    const files = Array.from({ length: 12 }, (_, i) => file(`f${i}.png`, i === 7 ? "2026-11-27" : "2026-11-29"));
    const notice = noticeFor("jo@example.com", files, options);
    expect(notice.subject).toBe("12 files on Evidence Locker will be deleted soon");
    expect(notice.text).toContain("12 files in your Evidence Locker account will be deleted by the retention policy, the first on 27 Nov 2026:");
    expect(notice.text.split("\n").filter((line) => line.startsWith("- f"))).toHaveLength(10);
    expect(notice.text).toContain("- and 2 more");
    expect(notice.text).not.toContain("f10.png");
  });
});
