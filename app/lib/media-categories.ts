/** Category options from the spec: the gallery filter and the upload page use different lists. */

export interface CategoryOption {
  value: string;
  label: string;
}

export const ALL_CATEGORIES = "all";

export const GALLERY_CATEGORY_FILTERS: CategoryOption[] = [
  { value: ALL_CATEGORIES, label: "All Categories" },
  { value: "phone_camera", label: "Phone Camera" },
  { value: "police_evidence", label: "Police Evidence" },
  { value: "security_camera", label: "Security Camera" },
  { value: "other", label: "Other" },
];

export const UPLOAD_CATEGORIES: CategoryOption[] = [
  { value: "screenshot", label: "Screenshot" },
  { value: "video", label: "Video" },
  { value: "document", label: "Document" },
  { value: "image", label: "Image" },
  { value: "other", label: "Other" },
];

export const DEFAULT_UPLOAD_CATEGORY = "other";

const LABELS = new Map([...GALLERY_CATEGORY_FILTERS, ...UPLOAD_CATEGORIES].map((c) => [c.value, c.label]));

/** A badge label for any stored category; scripts may use categories outside both lists. */
export function categoryLabel(category: string): string {
  return LABELS.get(category) ?? category.replace(/[_-]+/g, " ").replace(/\b\w/g, (c) => c.toUpperCase());
}

/** The kind of preview a card shows for a MIME type. */
export type MediaKind = "image" | "video" | "audio" | "document";

export function mediaKind(mimeType: string): MediaKind {
  const base = mimeType.split(";")[0]!.trim().toLowerCase();
  if (base.startsWith("image/")) return "image";
  if (base.startsWith("video/")) return "video";
  if (base.startsWith("audio/")) return "audio";
  return "document";
}
