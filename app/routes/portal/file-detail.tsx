import { data } from "react-router";
import { FileDetailView, uploadedByLabel } from "~/components/media/file-detail-view";
import { pageTitle } from "~/lib/site";
import { requireTeam } from "~/http/guards.server";
import { runFileAction } from "~/http/file-actions.server";
import { redirectWithToast } from "~/http/toast.server";
import { findFileDetails } from "~/services/files/file-details.server";
import { deleteOwnedFiles, shareUrl } from "~/services/files/portal-files.server";
import { recordPortalAudit } from "~/http/portal-audit.server";
import { refuseChange } from "~/http/refused-changes.server";
import { caseTarget, filesAudit } from "~/lib/audit-targets";
import { addFilesToCase, caseChoicesForFile, caseViewerOf, findCaseForTeam } from "~/services/files/evidence-cases.server";
import { createShare, listShares, parseShareOptions, revokeShare } from "~/services/files/file-shares.server";
import { isRasterImage } from "~/services/media/images.server";
import { fileExpiries, planRetentionDays, setKeepForever } from "~/services/retention/expiry.server";
import { isDomainError } from "~/services/platform/domain-error.server";
import { ERROR_STATUS } from "~/http/api-response.server";
import { actionFail, actionOk } from "~/http/action-results.server";
import { listStoredCategories } from "~/services/servers/categories.server";
import type { Route } from "./+types/file-detail";
import { parseId } from "~/services/platform/ids.server";
import type { CaseId, FileId } from "~/lib/ids";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { user, team } = await requireTeam(request, context, "view_media");
  const file = await findFileDetails(context.db, team.id, parseId<FileId>(params.fileId));
  if (!file) throw data("File not found", { status: 404 });
  const [expiries, stored, planDays, shares, cases] = await Promise.all([
    fileExpiries(context.db, [file.id]),
    listStoredCategories(context.db, { teamId: team.id }),
    planRetentionDays(context.db, team.id),
    listShares(context.db, team.id, file.id),
    caseChoicesForFile(context.db, file.serverId, file.id, caseViewerOf(user.id, team.permissions)),
  ]);
  const url = shareUrl(context.config, file);
  const sharePage: [string, string] = ["Share page (shows the file in Discord embeds)", `${context.config.appUrl}/v/${file.id}`];
  const transforms: [string, string][] =
    file.isPublic && isRasterImage(file.mimeType)
      ? [
          sharePage,
          ["Original", url],
          ["Thumbnail (320 px WebP)", `${url}?w=320&format=webp`],
          ["Medium (800 px WebP)", `${url}?w=800&format=webp`],
          ["Full size as WebP", `${url}?format=webp`],
        ]
      : file.isPublic
        ? [sharePage, ["Original", url]]
        : [];
  return {
    file: {
      ...file,
      createdAt: file.createdAt.toISOString(),
      metadata: Object.entries(file.metadata).map(([key, value]): [string, string] => [key, typeof value === "string" ? value : JSON.stringify(value)]),
      uploadedBy: uploadedByLabel(file.uploadedVia, file.keyName),
      expiresAt: expiries.get(file.id)?.toISOString() ?? null,
      shareUrl: url,
      transforms,
      categories: stored.map((c) => c.category),
      canKeepForever: planDays === null,
      cases: cases.inCases,
      openCases: cases.openCases,
      shares: shares.map((share) => ({
        url: `${context.config.appUrl}/s/${share.token}`,
        token: share.token,
        expiresAt: share.expiresAt?.toISOString() ?? null,
        hasPassword: share.hasPassword,
        maxViews: share.maxViews,
        views: share.views,
      })),
    },
  };
}

/** What each intent of this page records on the audit trail; filing into a case only needs to see the file, the rest needs "delete media". */
const FILE_PAGE_ACTIONS = {
  delete: "file.delete",
  visibility: "file.visibility",
  category: "file.category",
  createShare: "file.share",
  revokeShare: "file.unshare",
  keepForever: "file.keep_forever",
  addToCase: "case.files",
} as const;

export async function action({ request, params, context }: Route.ActionArgs) {
  const auth = await requireTeam(request, context, "view_media");
  // The file before anything else: another team's file, or none, is the same 404 whatever the member may do.
  const file = await findFileDetails(context.db, auth.team.id, parseId<FileId>(params.fileId));
  if (!file) return actionFail("Error", "File not found", 404);
  const fileId = file.id;
  const form = await request.formData();
  form.delete("id");
  form.set("id", fileId);
  const intent = String(form.get("intent") ?? "");
  // An own property only: "constructor" or "toString" are no action.
  if (!Object.hasOwn(FILE_PAGE_ACTIONS, intent)) return actionFail("Error", "Unknown action", 400);
  const audit = filesAudit([{ id: fileId, name: file.originalFilename }]);
  if (intent !== "addToCase" && !auth.team.permissions.includes("delete_media")) {
    return refuseChange(context, auth, { action: FILE_PAGE_ACTIONS[intent as keyof typeof FILE_PAGE_ACTIONS], ...audit, serverId: file.serverId, permission: "delete_media" });
  }
  if (intent === "delete") {
    let deleted: FileId[];
    try {
      deleted = await deleteOwnedFiles(context, auth.team.id, [fileId]);
    } catch (error) {
      if (!isDomainError(error, "file_in_open_case")) throw error;
      return actionFail("Error deleting file", error.message, 409);
    }
    if (deleted.length === 0) return actionFail("Error deleting file", "Failed to delete file", 404);
    await recordPortalAudit(context, auth, { action: "file.delete", ...audit });
    return redirectWithToast("/gallery", { type: "success", title: "File deleted" });
  }
  if (intent === "createShare") {
    try {
      const options = parseShareOptions({ expiresInHours: form.get("expiresInHours"), password: form.get("password"), maxViews: form.get("maxViews") });
      const token = await createShare(context.db, auth.team.id, fileId, options);
      await recordPortalAudit(context, auth, { action: "file.share", target: audit.target, detail: { ...audit.detail, expires_in_hours: options.expiresInHours, password: options.password !== null } });
      return actionOk({ type: "success", title: "Share link created", description: `${context.config.appUrl}/s/${token}` }, { shareUrl: `${context.config.appUrl}/s/${token}` });
    } catch (error) {
      if (!isDomainError(error, "invalid_request", "not_found")) throw error;
      return actionFail("Error creating share link", error.message, ERROR_STATUS[error.code]);
    }
  }
  if (intent === "revokeShare") {
    if (!(await revokeShare(context.db, auth.team.id, String(form.get("token") ?? "")))) return actionFail("Error", "That share link is already gone.", 404);
    await recordPortalAudit(context, auth, { action: "file.unshare", ...audit });
    return actionOk({ type: "success", title: "Share link revoked" });
  }
  if (intent === "addToCase") {
    const found = await findCaseForTeam(context.db, auth.team.id, parseId<CaseId>(form.get("caseId")), caseViewerOf(auth.user.id, auth.team.permissions));
    if (!found || file.serverId !== found.serverId) return actionFail("Error", "Choose an open case of this file's server.", 404);
    try {
      await addFilesToCase(context.db, found, [file.id], { userId: auth.user.id });
    } catch (error) {
      if (!isDomainError(error, "invalid_request")) throw error;
      return actionFail("Error", error.message, 400);
    }
    await recordPortalAudit(context, auth, { action: "case.files", target: caseTarget(found.number), serverId: found.serverId, detail: audit.detail });
    return actionOk({ type: "success", title: "Filed as evidence", description: `In case ${found.number}: kept and not deletable while the case is open.` });
  }
  if (intent === "keepForever") {
    const keep = form.get("keep") === "on";
    try {
      if (!(await setKeepForever(context.db, auth.team.id, fileId, keep))) return actionFail("Error", "File not found", 404);
    } catch (error) {
      if (!isDomainError(error, "plan_unavailable")) throw error;
      return actionFail("Error", error.message, ERROR_STATUS[error.code]);
    }
    await recordPortalAudit(context, auth, { action: "file.keep_forever", target: audit.target, detail: { ...audit.detail, keep } });
    return actionOk({ type: "success", title: keep ? "Kept forever" : "Retention rules apply", description: keep ? "Retention rules will not delete this file." : "The server's retention rules apply to this file again." });
  }
  return runFileAction(context, auth, form);
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: pageTitle(loaderData?.file.originalFilename ?? "File") }];
}

export default function FileDetail({ loaderData }: Route.ComponentProps) {
  return <FileDetailView file={loaderData.file} />;
}
