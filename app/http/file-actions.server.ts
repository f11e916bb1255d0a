import type { AppLoadContext } from "react-router";
import { categoryLabel } from "~/lib/categories";
import { sanitizeInput } from "~/lib/sanitize";
import { filesAudit } from "~/lib/audit-targets";
import { findTeamFiles, MAX_BULK_FILES, moveFilesToCategory, setFilesVisibility, type NamedFile } from "~/services/files/file-details.server";
import { deleteOwnedFiles } from "~/services/files/portal-files.server";
import { actionFail, actionOk } from "~/http/action-results.server";
import { isDomainError } from "~/services/platform/domain-error.server";
import { recordPortalAudit, type PortalActor } from "~/http/portal-audit.server";
import { refuseChange } from "~/http/refused-changes.server";
import { parseIds } from "~/services/platform/ids.server";
import type { FileId } from "~/lib/ids";

/** Each file action: its error toast's title, what the trail records, the answer when none of the files asked for is the team's (or is still there). */
const FILE_ACTIONS = {
  delete: { title: "Error deleting file", action: "file.delete", notFound: "Failed to delete file" },
  visibility: { title: "Error changing visibility", action: "file.visibility", notFound: "File not found" },
  category: { title: "Error changing category", action: "file.category", notFound: "Those files are already in that category, or no longer exist." },
} as const;
type FileIntent = keyof typeof FILE_ACTIONS;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The files of `files` whose ids are in `ids`, as the trail names them. */
const auditOf = (files: NamedFile[], ids: readonly string[]) => filesAudit(files.filter((f) => ids.includes(f.id)));

/**
 * The file actions the gallery's selection bar and the file detail view share: change visibility,
 * move to a category, delete. Each answers one ActionResult with the ids it changed. Changing or
 * deleting files needs the member's "delete media" permission.
 */
export async function runFileAction(context: AppLoadContext, actor: PortalActor, form: FormData) {
  const teamId = actor.team.id;
  const intent = String(form.get("intent") ?? "");
  const requested = form.getAll("id");
  const nothing = { changed: [] as FileId[], deleted: [] as FileId[] };
  // An own property only: "constructor" or "toString" are no action.
  if (!Object.hasOwn(FILE_ACTIONS, intent)) return actionFail("Error", "Unknown action", 400, undefined, nothing);
  const { title, action, notFound } = FILE_ACTIONS[intent as FileIntent];
  const failed = (status: number, description: string) => actionFail(title, description, status, undefined, nothing);
  if (requested.length === 0) return failed(400, "Select at least one file.");
  if (requested.length > MAX_BULK_FILES) return failed(400, `Select at most ${MAX_BULK_FILES} files at a time.`);
  // The team's own files first: ids of another team's files (or of none) get the same 404 whatever the member may do.
  const files = await findTeamFiles(context.db, teamId, parseIds<FileId>(requested));
  if (files.length === 0) return failed(404, notFound);
  if (!actor.team.permissions.includes("delete_media")) {
    return refuseChange(context, actor, { action, ...filesAudit(files), permission: "delete_media" }, title, nothing);
  }
  const ids = files.map((f) => f.id);

  if (intent === "delete") {
    let deleted: string[];
    try {
      deleted = await deleteOwnedFiles(context, teamId, ids);
    } catch (error) {
      if (!isDomainError(error, "file_in_open_case")) throw error;
      return failed(409, error.message);
    }
    if (deleted.length === 0) return failed(404, notFound);
    await recordPortalAudit(context, actor, { action, ...auditOf(files, deleted) });
    return actionOk(
      { type: "success", title: "File deleted", description: deleted.length > 1 ? `${deleted.length} files have been deleted.` : undefined },
      { changed: ids, deleted: ids },
    );
  }
  if (intent === "visibility") {
    const visibility = form.get("visibility");
    if (visibility !== "public" && visibility !== "private") return failed(400, "Choose public or private.");
    const changed = await setFilesVisibility(context.db, teamId, ids, visibility === "public");
    if (changed.length === 0) return failed(404, notFound);
    const changes = auditOf(files, changed);
    await recordPortalAudit(context, actor, { action, target: changes.target, detail: { ...changes.detail, visibility } });
    const description = changed.length === 1 ? `The file is now ${visibility}.` : `${changed.length} files are now ${visibility}.`;
    return actionOk({ type: "success", title: "Visibility updated", description }, { changed: ids, deleted: [] as FileId[] });
  }
  const raw = sanitizeInput(String(form.get("category") ?? ""));
  if (!raw) return failed(400, "Category is required");
  const move = await moveFilesToCategory(context.db, teamId, ids, raw);
  const moved = move.movedIds.length;
  if (moved) {
    const changes = auditOf(files, move.movedIds);
    await recordPortalAudit(context, actor, { action, target: changes.target, detail: { ...changes.detail, category: move.category } });
  }
  if (moved === 0 && move.conflicts === 0) return failed(404, notFound);
  const left = move.conflicts ? ` ${plural(move.conflicts, "file")} stayed where ${move.conflicts === 1 ? "it was" : "they were"}: the name is taken there.` : "";
  return actionOk(
    { type: moved ? "success" : "error", title: moved ? "Category changed" : title, description: `Moved ${plural(moved, "file")} to ${categoryLabel(move.category)}; their links changed.${left}` },
    { changed: ids, deleted: [] as FileId[] },
  );
}
