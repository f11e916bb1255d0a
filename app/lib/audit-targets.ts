/**
 * How an audit entry names what it acted on (the `target` column /audit and the exports show), so
 * an owner reading the trail knows which file, key, member or case without looking anything up.
 * The `detail` beside it keeps every file of a bulk change, as data.
 */

/** A file as the trail names it: what the gallery shows (the original name) and its id. */
export interface AuditFile {
  id: string;
  name: string;
}

/** Names this many files in full; a bulk change of more says "and N more" (its detail lists them all). */
export const NAMED_FILES = 3;
/** A name longer than this is cut with "…": the target is one line, the detail keeps the whole name. */
export const NAME_CHARS = 80;

function shortName(name: string): string {
  const trimmed = name.trim() || "unnamed";
  return trimmed.length > NAME_CHARS ? `${trimmed.slice(0, NAME_CHARS - 1)}…` : trimmed;
}

/** `cell-block.png (id)`. */
export function fileTarget(file: AuditFile): string {
  return `${shortName(file.name)} (${file.id})`;
}

/**
 * One file as `a.png (id)`; several as `4 files: a.png (id), b.png (id), c.png (id) and 1 more`,
 * with every file as `{id, name}` in the detail.
 */
export function filesAudit(files: readonly AuditFile[]): { target: string; detail: { files: AuditFile[] } } {
  const detail = { files: files.map(({ id, name }) => ({ id, name })) };
  if (files.length === 1) return { target: fileTarget(files[0]!), detail };
  const named = files.slice(0, NAMED_FILES).map(fileTarget).join(", ");
  const more = files.length > NAMED_FILES ? ` and ${files.length - NAMED_FILES} more` : "";
  return { target: files.length === 0 ? "0 files" : `${files.length} files: ${named}${more}`, detail };
}

/** Stored file rows (an upload's answer, a deleted row) as the trail names them. */
export function storedFilesAudit(files: readonly { id: string; original_filename: string }[]) {
  return filesAudit(files.map((file) => ({ id: file.id, name: file.original_filename })));
}

/** `Case XT-0020`. */
export const caseTarget = (number: string) => `Case ${number}`;

/** A change refused before its route ran: the method and path it asked for. */
export const requestTarget = (method: string, pathname: string) => `${method.toUpperCase()} ${pathname}`;
