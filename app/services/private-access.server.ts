import { ApiError } from "../lib/api-response.ts";
import { authenticateApiRequest } from "./api-auth.server.ts";
import type { AppContext } from "./app-context.server.ts";

export interface KeyedRequest {
  headers: Headers;
  query: URLSearchParams;
  ip: string;
}

/**
 * Whether the request carries a valid key (with read permission) of `serverId`. Private files are
 * answered like missing ones otherwise, so every failure here is simply "no": a 401 or 403 would
 * tell a stranger that the file exists. Failed keys still count against the caller's IP.
 */
export async function canReadPrivateFile(ctx: AppContext, request: KeyedRequest, serverId: string): Promise<boolean> {
  try {
    const caller = await authenticateApiRequest(ctx, { ...request, permission: "read" });
    return caller.serverId === serverId;
  } catch (error) {
    if (error instanceof ApiError) return false;
    throw error;
  }
}
