import type { AppContext } from "~/services/app-context.server";
import { DomainError } from "~/services/platform/domain-error.server";
import { originKey } from "~/services/platform/outbound-fetch.server";
import type { ImportItemInput } from "~/services/imports/import-items.server";

/**
 * Fivemanage's file list (`GET {FIVEMANAGE_API_BASE}/v3/file?page=&limit=`, the customer's API key
 * in `Authorization`, as their SDKs send it). Each file's `originalUrl` is on Fivemanage's own
 * storage even when the customer serves from a custom domain, so that is what an import fetches.
 */

export const FIVEMANAGE_PAGE_SIZE = 100;

interface FivemanageFileJson {
  id?: unknown;
  url?: unknown;
  originalUrl?: unknown;
  filename?: unknown;
  name?: unknown;
  size?: unknown;
  createdAt?: unknown;
  created_at?: unknown;
}

export interface FivemanagePage {
  items: ImportItemInput[];
  /** Whether another page follows. */
  more: boolean;
}

/** Where Fivemanage keeps files: its own hosts, or the configured API base's origin (a stand-in). */
export function fivemanageHost(ctx: AppContext): (url: URL) => boolean {
  const api = originKey(new URL(ctx.config.FIVEMANAGE_API_BASE));
  return (url) => {
    const host = url.hostname.toLowerCase();
    return host === "fivemanage.com" || host.endsWith(".fivemanage.com") || originKey(url) === api;
  };
}

function filesOf(answer: unknown): FivemanageFileJson[] | null {
  const body = answer as { data?: unknown; files?: unknown } | null;
  if (Array.isArray(body?.data)) return body.data as FivemanageFileJson[];
  const inner = body?.data as { files?: unknown; items?: unknown } | undefined;
  if (Array.isArray(inner?.files)) return inner.files as FivemanageFileJson[];
  if (Array.isArray(inner?.items)) return inner.items as FivemanageFileJson[];
  if (Array.isArray(body?.files)) return body.files as FivemanageFileJson[];
  return null;
}

export async function listFivemanageFiles(ctx: AppContext, apiKey: string, page: number, signal?: AbortSignal): Promise<FivemanagePage> {
  const url = `${ctx.config.FIVEMANAGE_API_BASE.replace(/\/+$/, "")}/v3/file?page=${page}&limit=${FIVEMANAGE_PAGE_SIZE}`;
  const allowHost = fivemanageHost(ctx);
  const response = await ctx.outbound.fetch(url, { headers: { Authorization: apiKey, Accept: "application/json" }, allowHost, signal, timeoutMs: 30_000 });
  if (response.status === 401 || response.status === 403) {
    await response.body?.cancel();
    throw new DomainError("invalid_credentials", `Fivemanage refused the API key (HTTP ${response.status}): copy a current key from your Fivemanage dashboard and start the import again.`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new DomainError("source_unavailable", `Fivemanage answered HTTP ${response.status} to the file list`);
  }
  const files = filesOf(await response.json().catch(() => null));
  if (!files) throw new DomainError("source_unavailable", "Fivemanage's file list did not have the expected shape (data: [...])");
  const items: ImportItemInput[] = [];
  for (const file of files) {
    const link = typeof file.originalUrl === "string" && file.originalUrl ? file.originalUrl : typeof file.url === "string" ? file.url : null;
    if (!link) continue;
    const created = new Date(String(file.createdAt ?? file.created_at ?? ""));
    const size = Number(file.size);
    items.push({
      ref: link,
      filename: typeof file.filename === "string" ? file.filename : typeof file.name === "string" ? file.name : null,
      postedAt: Number.isNaN(created.getTime()) ? null : created,
      sizeBytes: Number.isFinite(size) ? size : null,
    });
  }
  return { items, more: files.length >= FIVEMANAGE_PAGE_SIZE };
}
