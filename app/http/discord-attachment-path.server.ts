import type { IncomingMessage, ServerResponse } from "node:http";
import { isDatabaseUnavailable } from "../../db/connection-errors";
import type { AppContext } from "~/services/app-context.server";
import { DomainError, ERRORS } from "~/services/platform/domain-error.server";
import { ERROR_STATUS, errorBody, errorHeaders } from "~/http/api-response.server";
import { findDiscordAttachment, parseDiscordAttachmentPath } from "~/services/imports/discord-attachments.server";

/**
 * `/dc/attachments/{channel_id}/{attachment_id}/{filename}`: a rescued Discord attachment, served as
 * the file it became is served at `/f/` — the same handler, so the same headers, caching, ranges,
 * sandbox CSP and access log (docs/decisions/111). Any query string (Discord's dead `ex`/`is`/`hm`)
 * is ignored. The request is handed on with its URL set to the file's `/f/` path; an unknown
 * attachment is handed on as a path `/f/` does not know, and answered as `/f/` answers one.
 */
export function createDiscordAttachmentHandler(ctx: AppContext, serveFile: (req: IncomingMessage, res: ServerResponse) => void) {
  return async function serveDiscordAttachment(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = parseDiscordAttachmentPath(req.url ?? "");
    let file;
    try {
      file = path ? await findDiscordAttachment(ctx.db, path) : undefined;
    } catch (error) {
      ctx.logger.warn({ err: error }, "could not look up a Discord attachment");
      const refusal = isDatabaseUnavailable(error) ? ERRORS.databaseUnavailable() : new DomainError("internal_error", "Something went wrong");
      const body = JSON.stringify(errorBody(refusal.code, refusal.message, refusal.details));
      res.writeHead(ERROR_STATUS[refusal.code], {
        "Content-Type": "application/json; charset=utf-8",
        "Cache-Control": "no-store",
        "X-Content-Type-Options": "nosniff",
        "Content-Security-Policy": "sandbox",
        "Access-Control-Allow-Origin": "*",
        ...errorHeaders(refusal),
      });
      return void res.end(body);
    }
    req.url = file ? `/f/${file.server_id}/${encodeURIComponent(file.category)}/${encodeURIComponent(file.filename)}` : "/f/";
    serveFile(req, res);
  };
}
