import { z } from "zod";
import { DomainError } from "~/services/platform/domain-error.server";
import type { ImportItemInput } from "~/services/imports/import-items.server";

/**
 * Zipline's export (v3, `versions.export = "3"`, diced/zipline's Zipline3Export): metadata of every
 * file — stored `name`, `original_name`, `type`, `size`, `created_at` — and none of the bytes. Each
 * file is fetched from the instance at `{instance}{route}/{name}` (Zipline's raw route is `/r`).
 */

const exportSchema = z.looseObject({
  versions: z.looseObject({ export: z.string() }),
  files: z.record(
    z.string(),
    z.looseObject({
      name: z.string().min(1),
      original_name: z.string().optional().nullable(),
      type: z.string().optional().nullable(),
      size: z.union([z.number(), z.string()]).optional().nullable(),
      created_at: z.string().optional().nullable(),
      password: z.string().optional().nullable(),
    }),
  ),
});

export interface ZiplineExport {
  version: string;
  items: ImportItemInput[];
  /** Files behind a password, which the instance will not hand over without it; left out. */
  passwordProtected: number;
}

/** The instance's base URL as the owner typed it: http(s), no query, no trailing slash. */
export function ziplineBaseUrl(value: unknown): string {
  let url: URL;
  try {
    url = new URL(String(value ?? "").trim());
  } catch {
    throw new DomainError("invalid_request", "Give the address of your Zipline instance, e.g. https://i.example.com", { field: "instance_url" });
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new DomainError("invalid_request", "The Zipline address must start with https://", { field: "instance_url" });
  url.search = "";
  url.hash = "";
  return url.toString().replace(/\/+$/, "");
}

export function parseZiplineExport(input: unknown, instanceUrl: string, route = "/r"): ZiplineExport {
  const parsed = exportSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new DomainError("invalid_export", `This is not a Zipline export: ${issue.path.join(".") || "the file"} ${issue.message.toLowerCase()}`, { path: issue.path.join(".") });
  }
  if (parsed.data.versions.export !== "3") {
    throw new DomainError("invalid_export", `Zipline export version ${parsed.data.versions.export} is not supported; export from Zipline 3 (Administration → Export)`);
  }
  const prefix = `${instanceUrl}/${route.replace(/^\/+|\/+$/g, "")}`;
  let passwordProtected = 0;
  const items: ImportItemInput[] = [];
  for (const file of Object.values(parsed.data.files)) {
    if (file.password) {
      passwordProtected++;
      continue;
    }
    const created = file.created_at ? new Date(file.created_at) : null;
    const size = Number(file.size);
    items.push({
      ref: `${prefix}/${encodeURIComponent(file.name)}`,
      filename: file.original_name || file.name,
      postedAt: created && !Number.isNaN(created.getTime()) ? created : null,
      sizeBytes: Number.isFinite(size) ? size : null,
    });
  }
  return { version: parsed.data.versions.export, items, passwordProtected };
}
