/** The kind of preview a card shows for a MIME type. */
export type MediaKind = "image" | "video" | "audio" | "document";

export function mediaKind(mimeType: string): MediaKind {
  const base = mimeType.split(";")[0]!.trim().toLowerCase();
  if (base.startsWith("image/")) return "image";
  if (base.startsWith("video/")) return "video";
  if (base.startsWith("audio/")) return "audio";
  return "document";
}
