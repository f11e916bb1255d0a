/**
 * The documentation's HTTP examples as data. The docs render each into curl text, and
 * tests/integration/docs-examples.test.ts sends each one to a live server, so what a reader copies
 * is what was tested. Upper-case placeholders (YOUR_API_KEY, FILE_ID, …) are the reader's own
 * values; `captures` names the placeholders an example's response fills for later examples.
 */

export type ExampleHost = "app" | "cdn";

export type ExampleBody =
  | { kind: "multipart"; fields: [string, string][]; files: [field: string, localFile: string][] }
  | { kind: "json"; json: Record<string, unknown> }
  | { kind: "binary"; contentType: string; localFile: string }
  | { kind: "text"; contentType: string; text: string };

export interface ApiExample {
  id: string;
  method: "GET" | "POST" | "PUT" | "HEAD";
  host: ExampleHost;
  path: string;
  query?: [string, string][];
  headers?: [string, string][];
  body?: ExampleBody;
  /** Download the response to this file (curl -o). */
  output?: string;
  expectStatus: number;
  /** Placeholder name → dotted path into the JSON response. */
  captures?: Record<string, string>;
}

export interface Bases {
  appUrl: string;
  cdnUrl: string;
}

/** A 1×1 PNG, small enough to print in a JSON example and valid for every image decoder. */
export const TINY_PNG_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

const key: [string, string] = ["x-api-key", "YOUR_API_KEY"];
const bearer: [string, string] = ["Authorization", "Bearer YOUR_API_KEY"];

export const API_EXAMPLES = {
  quickStartUpload: {
    id: "quick-start-upload",
    method: "POST",
    host: "app",
    path: "/api/upload",
    headers: [key],
    body: { kind: "multipart", fields: [["category", "screenshots"]], files: [["file", "screenshot.png"]] },
    expectStatus: 201,
    captures: { FILE_PATH: "path" },
  },
  authBearer: {
    id: "auth-bearer",
    method: "GET",
    host: "app",
    path: "/api/search",
    query: [["limit", "1"]],
    headers: [bearer],
    expectStatus: 200,
  },
  authBadKey: {
    id: "auth-bad-key",
    method: "GET",
    host: "app",
    path: "/api/search",
    headers: [["x-api-key", "sk_not_a_real_key"]],
    expectStatus: 401,
  },
  firstUpload: {
    id: "first-upload",
    method: "POST",
    host: "app",
    path: "/api/upload",
    headers: [key],
    body: {
      kind: "multipart",
      fields: [
        ["category", "phone_photos"],
        ["is_public", "true"],
        ["player_name", "Tony Russo"],
        ["player_identifier", "license:1a2b3c4d"],
        ["metadata", '{"app":"camera","location":"Vespucci Beach"}'],
      ],
      files: [["file", "photo.png"]],
    },
    expectStatus: 201,
  },
  policeEvidence: {
    id: "police-evidence",
    method: "POST",
    host: "app",
    path: "/api/upload",
    headers: [key],
    body: {
      kind: "multipart",
      fields: [
        ["category", "police_evidence"],
        ["is_public", "false"],
        ["player_name", "Officer Daniels"],
        ["player_identifier", "license:5e6f7a8b"],
        ["metadata", '{"case_number":"LSPD-2024-0117","location":"Pillbox Hill"}'],
      ],
      files: [["file", "evidence.png"]],
    },
    expectStatus: 201,
    captures: { PRIVATE_FILE_ID: "id" },
  },
  housingCamera: {
    id: "housing-camera",
    method: "POST",
    host: "app",
    path: "/api/upload",
    headers: [key],
    body: {
      kind: "multipart",
      fields: [
        ["category", "security_camera"],
        ["is_public", "false"],
        ["metadata", '{"property":"Mirror Park 14","camera":"front-door"}'],
      ],
      files: [["file", "camera.png"]],
    },
    expectStatus: 201,
  },
  inventoryImage: {
    id: "inventory-image",
    method: "POST",
    host: "app",
    path: "/api/upload",
    headers: [key],
    body: { kind: "multipart", fields: [["category", "items"], ["filename", "lockpick.png"]], files: [["image", "lockpick.png"]] },
    expectStatus: 201,
  },
  base64Json: {
    id: "base64-json",
    method: "POST",
    host: "app",
    path: "/api/upload/base64",
    headers: [key, ["Content-Type", "application/json"]],
    body: {
      kind: "json",
      json: { data: `data:image/png;base64,${TINY_PNG_BASE64}`, filename: "mugshot.png", category: "police_mugshot", player_name: "Tony Russo" },
    },
    expectStatus: 201,
  },
  rawDataUri: {
    id: "raw-data-uri",
    method: "POST",
    host: "app",
    path: "/api/upload",
    query: [
      ["category", "screenshots"],
      ["filename", "screenshot.png"],
    ],
    headers: [key],
    body: { kind: "text", contentType: "text/plain", text: `data:image/png;base64,${TINY_PNG_BASE64}` },
    expectStatus: 201,
  },
  rawBytes: {
    id: "raw-bytes",
    method: "POST",
    host: "app",
    path: "/api/upload",
    query: [["category", "screenshots"]],
    headers: [key, ["X-Filename", "screenshot.png"]],
    body: { kind: "binary", contentType: "image/png", localFile: "screenshot.png" },
    expectStatus: 201,
  },
  search: {
    id: "search",
    method: "GET",
    host: "app",
    path: "/api/search",
    query: [
      ["category", "phone_photos"],
      ["player_identifier", "license:1a2b3c4d"],
      ["sort", "desc"],
      ["limit", "10"],
    ],
    headers: [key],
    expectStatus: 200,
  },
  searchMetadata: {
    id: "search-metadata",
    method: "GET",
    host: "app",
    path: "/api/search",
    query: [
      ["category", "police_evidence"],
      ["metadata", '{"case_number":"LSPD-2024-0117"}'],
    ],
    headers: [key],
    expectStatus: 200,
  },
  downloadByPath: {
    id: "download-by-path",
    method: "GET",
    host: "app",
    path: "/api/download",
    query: [["file", "FILE_PATH"]],
    output: "screenshot.png",
    expectStatus: 200,
  },
  downloadPrivate: {
    id: "download-private",
    method: "GET",
    host: "app",
    path: "/api/download/PRIVATE_FILE_ID",
    headers: [bearer],
    output: "evidence.png",
    expectStatus: 200,
  },
  signedUrl: {
    id: "signed-url",
    method: "GET",
    host: "app",
    path: "/api/files/PRIVATE_FILE_ID/signed-url",
    query: [["expires_in", "3600"]],
    headers: [bearer],
    expectStatus: 200,
  },
  fileHead: {
    id: "file-head",
    method: "HEAD",
    host: "cdn",
    path: "/f/FILE_PATH",
    expectStatus: 200,
  },
  transform: {
    id: "transform",
    method: "GET",
    host: "cdn",
    path: "/f/FILE_PATH",
    query: [
      ["w", "320"],
      ["format", "webp"],
    ],
    output: "thumb.webp",
    expectStatus: 200,
  },
  presign: {
    id: "presign",
    method: "POST",
    host: "app",
    path: "/api/upload/presign",
    headers: [key, ["Content-Type", "application/json"]],
    body: { kind: "json", json: { category: "screenshots" } },
    expectStatus: 200,
    captures: { PRESIGNED_URL: "url" },
  },
  presignedPut: {
    id: "presigned-put",
    method: "PUT",
    host: "app",
    path: "PRESIGNED_URL",
    body: { kind: "binary", contentType: "image/png", localFile: "screenshot.png" },
    expectStatus: 201,
  },
  webhook: {
    id: "webhook",
    method: "POST",
    host: "app",
    path: "/api/webhooks/YOUR_SERVER_ID/YOUR_WEBHOOK_SECRET",
    query: [["wait", "true"]],
    body: { kind: "multipart", fields: [["payload_json", '{"content":"Bodycam still, unit 2-ADAM-12"}']], files: [["files[0]", "bodycam.png"]] },
    expectStatus: 200,
  },
  health: {
    id: "health",
    method: "GET",
    host: "app",
    path: "/api/health",
    expectStatus: 200,
  },
  logsSend: {
    id: "logs-send",
    method: "POST",
    host: "app",
    path: "/api/logs",
    headers: [key, ["Content-Type", "application/json"], ["X-Fivemanage-Dataset", "economy"]],
    body: { kind: "json", json: { level: "info", message: "Player paid $500 to Pacific Bank", resource: "qb-banking", metadata: { citizenid: "ABC123", amount: 500 } } },
    expectStatus: 200,
  },
  logsDiscord: {
    id: "logs-discord",
    method: "POST",
    host: "app",
    path: "/api/webhooks/YOUR_SERVER_ID/YOUR_WEBHOOK_SECRET",
    headers: [["Content-Type", "application/json"]],
    body: { kind: "json", json: { username: "JD Logs", embeds: [{ title: "Player Died", description: "Niko was killed by Roman", color: 16711680 }] } },
    expectStatus: 204,
  },
  logsSearch: {
    id: "logs-search",
    method: "GET",
    host: "app",
    path: "/api/logs/search",
    query: [["dataset", "economy"], ["meta", "citizenid=ABC123"]],
    headers: [key],
    expectStatus: 200,
  },
} satisfies Record<string, ApiExample>;

export type ApiExampleName = keyof typeof API_EXAMPLES;

/** The headers the docs promise on every file response, with what each means. */
export const FILE_RESPONSE_HEADERS: [string, string][] = [
  ["Content-Type", "The type detected from the file's bytes"],
  ["Content-Length", "Size in bytes"],
  ["Cache-Control", "public, max-age=31536000, immutable for public files; private, no-cache for private files"],
  ["ETag", "For If-None-Match revalidation (304)"],
  ["Last-Modified", "For If-Modified-Since revalidation (304)"],
  ["Accept-Ranges", "bytes: video players can seek"],
  ["Content-Disposition", "inline for images, video and audio, attachment for everything else, with the original file name"],
  ["X-Content-Type-Options", "nosniff"],
  ["Content-Security-Policy", "sandbox: uploaded content can never run as a page"],
  ["Access-Control-Allow-Origin", "*: usable from NUI pages"],
];

/** What the docs show as an upload's answer; the docs-examples test checks the real answer has every field. */
export function sampleUploadResponse(cdnUrl: string) {
  const url = `${cdnUrl}/f/lsrp7k2m9q4x/phone_photos/gaj1op062b2gs9gavnd1.webp`;
  const id = "5b0e6f0c-8a51-4b8e-9d0e-2f7c1a9e3d44";
  return {
    success: true,
    status: "ok",
    error: false,
    id,
    file_id: id,
    url,
    public_url: url,
    link: url,
    path: "lsrp7k2m9q4x/phone_photos/gaj1op062b2gs9gavnd1.webp",
    filename: "gaj1op062b2gs9gavnd1.webp",
    original_filename: "photo.png",
    file_size: 48213,
    mime_type: "image/webp",
    category: "phone_photos",
    is_public: true,
    player_name: "Tony Russo",
    player_identifier: "license:1a2b3c4d",
    metadata: { app: "camera", location: "Vespucci Beach" },
    uploaded_at: "2026-11-22T18:04:11.512Z",
    data: { id, url, link: url, public_url: url, filename: "gaj1op062b2gs9gavnd1.webp" },
    attachments: [{ url, proxy_url: url }],
  };
}

/** What the docs show as a search answer (one file, trimmed to the fields scripts use). */
export function sampleSearchResponse(cdnUrl: string) {
  const upload = sampleUploadResponse(cdnUrl);
  const file = Object.fromEntries(
    (["id", "file_id", "filename", "original_filename", "file_size", "mime_type", "url", "public_url", "path", "category", "is_public", "player_name", "player_identifier", "metadata", "uploaded_at"] as const).map((k) => [k, upload[k]]),
  );
  return { success: true, files: [file], total: 1, total_capped: false, limit: 10, offset: 0, page: 1, has_more: false };
}

/** A placeholder for a full URL is used as is; anything else is a path on the chosen host. */
export function exampleUrl(example: ApiExample, bases: Bases): string {
  if (/^[A-Z_]+$/.test(example.path) || /^https?:\/\//.test(example.path)) return example.path;
  return `${example.host === "cdn" ? bases.cdnUrl : bases.appUrl}${example.path}`;
}

const SAFE_QUERY_VALUE = /^[\w.:/-]*$/;

function shellQuote(value: string): string {
  if (/^[\w@%+=:,./-]+$/.test(value)) return value;
  if (!/[`$"\\]/.test(value)) return `"${value}"`;
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/** The curl command a reader copies for an example. */
export function toCurl(example: ApiExample, bases: Bases): string {
  const url = exampleUrl(example, bases);
  const query = example.query ?? [];
  const inlineQuery = query.every(([, value]) => SAFE_QUERY_VALUE.test(value));
  const lines: string[] = [];
  const first = ["curl"];
  if (example.method === "HEAD") first.push("-I");
  else if (example.method !== "GET") first.push("-X", example.method);
  if (query.length && !inlineQuery) first.push("-G");
  first.push(shellQuote(inlineQuery && query.length ? `${url}?${query.map(([k, v]) => `${k}=${v}`).join("&")}` : url));
  lines.push(first.join(" "));
  if (!inlineQuery) for (const [k, v] of query) lines.push(`--data-urlencode ${shellQuote(`${k}=${v}`)}`);
  for (const [name, value] of example.headers ?? []) lines.push(`-H ${shellQuote(`${name}: ${value}`)}`);
  const body = example.body;
  if (body?.kind === "multipart") {
    // Text fields first: the server then knows the category before the file's bytes arrive.
    for (const [name, value] of body.fields) lines.push(`-F ${shellQuote(`${name}=${value}`)}`);
    for (const [field, file] of body.files) lines.push(`-F ${shellQuote(`${field}=@${file}`)}`);
  } else if (body?.kind === "json") {
    lines.push(`-d ${shellQuote(JSON.stringify(body.json))}`);
  } else if (body?.kind === "binary") {
    lines.push(`-H ${shellQuote(`Content-Type: ${body.contentType}`)}`, `--data-binary @${body.localFile}`);
  } else if (body?.kind === "text") {
    lines.push(`-H ${shellQuote(`Content-Type: ${body.contentType}`)}`, `--data-binary ${shellQuote(body.text)}`);
  }
  if (example.output) lines.push(`-o ${example.output}`);
  return lines.join(" \\\n  ");
}
