import type { Migration } from "kysely";
import { initial } from "./0001-initial.ts";
import { blobDeletions } from "./0002-blob-deletions.ts";
import { sessionExpiryIndex } from "./0003-session-expiry-index.ts";
import { defaultFileTypes } from "./0004-default-file-types.ts";
import { storageReports } from "./0005-storage-reports.ts";
import { onDemandVariants } from "./0006-on-demand-variants.ts";
import { fileRecordsAndReports } from "./0007-file-records-and-reports.ts";
import { statusSamples } from "./0008-status-samples.ts";
import { videoCopies } from "./0009-video-copies.ts";
import { fileShares } from "./0010-file-shares.ts";
import { keyScopes } from "./0011-key-scopes.ts";
import { auditTrail } from "./0012-audit-trail.ts";
import { evidenceCases } from "./0013-evidence-cases.ts";
import { teams } from "./0014-teams.ts";
import { caseMembers } from "./0015-case-members.ts";
import { logs } from "./0016-logs.ts";
import { logSavedQueries } from "./0017-log-saved-queries.ts";
import { logForwardsAlerts } from "./0018-log-forwards-alerts.ts";
import { apiKeyUsage } from "./0019-api-key-usage.ts";
import { defaultFileTypesPdf } from "./0020-default-file-types-pdf.ts";
import { mp4CopyFailures } from "./0021-mp4-copy-failures.ts";
import { imports } from "./0023-imports.ts";
import { discordAttachments } from "./0024-discord-attachments.ts";

/** Every migration, in order. Names sort lexically; add new ones at the end. */
export const migrations: Record<string, Migration> = {
  "0001-initial": initial,
  "0002-blob-deletions": blobDeletions,
  "0003-session-expiry-index": sessionExpiryIndex,
  "0004-default-file-types": defaultFileTypes,
  "0005-storage-reports": storageReports,
  "0006-on-demand-variants": onDemandVariants,
  "0007-file-records-and-reports": fileRecordsAndReports,
  "0008-status-samples": statusSamples,
  "0009-video-copies": videoCopies,
  "0010-file-shares": fileShares,
  "0011-key-scopes": keyScopes,
  "0012-audit-trail": auditTrail,
  "0013-evidence-cases": evidenceCases,
  "0014-teams": teams,
  "0015-case-members": caseMembers,
  "0016-logs": logs,
  "0017-log-saved-queries": logSavedQueries,
  "0018-log-forwards-alerts": logForwardsAlerts,
  "0019-api-key-usage": apiKeyUsage,
  "0020-default-file-types-pdf": defaultFileTypesPdf,
  "0021-mp4-copy-failures": mp4CopyFailures,
  "0023-imports": imports,
  "0024-discord-attachments": discordAttachments,
};
