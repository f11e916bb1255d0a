import type { Readable } from "node:stream";
import { zipResponse } from "~/http/file-response.server";
import type { EvidenceCase } from "~/services/files/evidence-cases.server";

/** A case as the API answers it. */
export function caseBody(evidenceCase: EvidenceCase, extra: Record<string, unknown> = {}) {
  return {
    case: {
      id: evidenceCase.id,
      number: evidenceCase.number,
      title: evidenceCase.title,
      notes: evidenceCase.notes,
      status: evidenceCase.status,
      created_at: evidenceCase.createdAt,
      closed_at: evidenceCase.closedAt,
      ...extra,
    },
  };
}

/** The export zip as a download named after the case. */
export function caseZipResponse(evidenceCase: EvidenceCase, stream: Readable, onError: (error: Error) => void): Response {
  return zipResponse(stream, `case-${evidenceCase.number.replace(/[^A-Za-z0-9_.-]/g, "_")}.zip`, onError);
}
