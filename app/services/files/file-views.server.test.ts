import { describe, expect, it } from "vitest";
import type { FileId } from "~/lib/ids";
import type { FileRecord } from "../../../db/schema";
import { fileUrl, toFileView, uploadResponseBody } from "~/services/files/file-views.server";

const file = {
  id: "f1" as FileId,
  server_id: "srv1",
  category: "mugshots",
  filename: "x1.png",
  original_filename: "booking.png",
  size_bytes: 1234,
  mime_type: "image/png",
  is_public: true,
  width: 10,
  height: 20,
  duration_ms: null,
  sha256: "ab",
  player_name: "Niko",
  player_identifier: "license:1",
  metadata: { a: 1 },
  created_at: new Date("2026-11-26T10:00:00Z"),
  expires_at: null,
  retention_exempt: false,
  thumbhash: null,
} as unknown as FileRecord;

describe("file views", () => {
  it("point url, public_url and link at the CDN path", () => {
    expect(fileUrl("https://cdn.example", file)).toBe("https://cdn.example/f/srv1/mugshots/x1.png");
    const view = toFileView("https://cdn.example", file);
    expect([view.url, view.public_url, view.link, view.path]).toEqual([
      "https://cdn.example/f/srv1/mugshots/x1.png",
      "https://cdn.example/f/srv1/mugshots/x1.png",
      "https://cdn.example/f/srv1/mugshots/x1.png",
      "srv1/mugshots/x1.png",
    ]);
    expect(view).toMatchObject({ id: "f1", file_id: "f1", file_size: 1234, size: 1234, uploaded_at: "2026-11-26T10:00:00.000Z", expires_at: null });
  });

  it("answer an upload with the first file on top, every file in files, and what processing stripped", () => {
    const second = { ...file, id: "f2" as FileId, filename: "x2.png", metadata_stripped: ["gps"], metadata_warning: "could not strip" };
    const body = uploadResponseBody("https://cdn.example", [file, second]);
    expect(body).toMatchObject({ id: "f1", metadata_stripped: [], data: { id: "f1", url: "https://cdn.example/f/srv1/mugshots/x1.png", filename: "x1.png" } });
    expect(body).not.toHaveProperty("metadata_warning");
    expect(body.files.map((f) => f.id)).toEqual(["f1", "f2"]);
    expect(body.files[1]).toMatchObject({ metadata_stripped: ["gps"], metadata_warning: "could not strip" });
    expect(body.attachments).toEqual([
      { url: "https://cdn.example/f/srv1/mugshots/x1.png", proxy_url: "https://cdn.example/f/srv1/mugshots/x1.png" },
      { url: "https://cdn.example/f/srv1/mugshots/x2.png", proxy_url: "https://cdn.example/f/srv1/mugshots/x2.png" },
    ]);
  });
});
