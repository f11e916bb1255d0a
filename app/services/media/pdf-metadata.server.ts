import { PDFDict, PDFDocument, PDFName } from "pdf-lib";

/** Document-information fields that say who made a PDF, with what, and about what. */
const INFO_FIELDS = ["Title", "Author", "Subject", "Keywords", "Creator", "Producer", "CreationDate", "ModDate"] as const;

export type PdfRewrite = { data: Buffer; stripped: string[] } | { data: null; stripped: []; reason: string };

/**
 * The PDF without its document-information fields and XMP metadata stream (pdf-lib, pure JS; the
 * pages, fonts and forms are written back unchanged). `stripped` names what was there, lower-case
 * ("author", "producer", "xmp"); nothing to strip gives `data: null` with an empty list. An encrypted
 * or unreadable PDF cannot be rewritten: it is kept as uploaded and `reason` says why.
 */
export async function stripPdfMetadata(bytes: Buffer): Promise<PdfRewrite> {
  try {
    return await rewrite(bytes);
  } catch (error) {
    const encrypted = error instanceof Error && /encrypt/i.test(error.message);
    return { data: null, stripped: [], reason: encrypted ? "the PDF is encrypted" : "the PDF could not be read" };
  }
}

/** How far from the end a well-formed PDF names its cross-reference (`startxref`). */
export const PDF_TAIL_BYTES = 4096;

/**
 * Every well-formed PDF ends by pointing at its cross-reference; without one pdf-lib would scan the
 * whole file object by object (minutes for a large damaged one), so such a file is not rewritten.
 * Reading only the tail lets a caller decide before loading the whole file.
 */
export function hasCrossReference(tail: Buffer): boolean {
  return tail.subarray(-PDF_TAIL_BYTES).includes("startxref");
}

async function rewrite(bytes: Buffer): Promise<PdfRewrite> {
  if (!hasCrossReference(bytes)) throw new Error("no cross-reference");
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  // pdf-lib "loads" a file without a catalog; such a file is not a PDF it can write back.
  if (!doc.catalog) throw new Error("no document catalog");
  // The trailer's /Info dictionary (pdf-lib's own accessor is private).
  const infoRef = doc.context.trailerInfo.Info;
  const info = infoRef ? doc.context.lookupMaybe(infoRef, PDFDict) : undefined;
  const stripped: string[] = [];
  for (const field of INFO_FIELDS) {
    const name = PDFName.of(field);
    if (info?.has(name)) {
      info.delete(name);
      stripped.push(field.toLowerCase());
    }
  }
  const xmp = PDFName.of("Metadata");
  if (doc.catalog.has(xmp)) {
    doc.catalog.delete(xmp);
    stripped.push("xmp");
  }
  if (stripped.length === 0) return { data: null, stripped: [], reason: "nothing to strip" };
  return { data: Buffer.from(await doc.save({ updateFieldAppearances: false })), stripped };
}
