import { ApiError } from "../lib/api-response.ts";
import { authenticateApiRequest } from "./api-auth.server.ts";
import { recordApiCall } from "./api-usage.server.ts";
import type { AppContext } from "./app-context.server.ts";

export interface KeyedRequest {
  headers: Headers;
  query: URLSearchParams;
  ip: string;
}

/**
 * Whether the request carries a valid key (with read permission) of `serverId`. Private files are
 * answered like missing ones otherwise, so every failure here is simply "no": a 401 or 403 would
 * tell a stranger that the file exists. Failed keys still count against the caller's IP; a key
 * that opens the file is a key-authenticated call, so it gets its audit row and api_calls count.
 */
export async function canReadPrivateFile(ctx: AppContext, request: KeyedRequest, serverId: string): Promise<boolean> {
  try {
    const caller = await authenticateApiRequest(ctx, { ...request, permission: "read" });
    if (caller.serverId !== serverId) return false;
    await recordApiCall(ctx.db, caller, { action: "file.read", ip: request.ip, status: 200 }).catch((error) =>
      ctx.logger.error({ err: error }, "could not record API call"),
    );
    return true;
  } catch (error) {
    if (error instanceof ApiError) return false;
    throw error;
  }
}
