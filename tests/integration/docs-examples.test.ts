import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { test } from "../helpers/fixtures.ts";
import {
  API_EXAMPLES,
  exampleUrl,
  FILE_RESPONSE_HEADERS,
  sampleSearchResponse,
  sampleUploadResponse,
  toCurl,
  type ApiExample,
  type ApiExampleName,
} from "../../app/lib/content/api-examples.ts";
import { createApiKey } from "../../app/services/api-keys/keys.server.ts";
import { createServer } from "../../app/services/servers/servers.server.ts";
import { createUser } from "../../app/services/accounts/users.server.ts";
import type { TestServer } from "../helpers/server.ts";
import { findPersonalTeam } from "../../app/services/teams/teams.server.ts";

/**
 * Sends every curl example of /docs, as data, to a live server: what a reader copies is what works.
 * Examples run in this order because later ones use what earlier ones return (FILE_ID, FILE_PATH, …).
 */
const RUN_ORDER: ApiExampleName[] = [
  "health",
  "quickStartUpload",
  "authBearer",
  "authBadKey",
  "firstUpload",
  "policeEvidence",
  "housingCamera",
  "inventoryImage",
  "base64Json",
  "rawDataUri",
  "rawBytes",
  "search",
  "searchMetadata",
  "downloadByPath",
  "downloadPrivate",
  "signedUrl",
  "fileHead",
  "transform",
  "presign",
  "presignedPut",
  "webhook",
  "logsSend",
  "logsDiscord",
  "logsSearch",
];


let server: TestServer;
const values: Record<string, string> = {};
const responses: Partial<Record<ApiExampleName, unknown>> = {};
const responseHeaders: Partial<Record<ApiExampleName, Headers>> = {};
const files = new Map<string, Buffer>();

async function fixture(name: string): Promise<Buffer> {
  if (!files.has(name)) {
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 242, g: 193, b: 78 } } }).png().toBuffer();
    files.set(name, png);
  }
  return files.get(name)!;
}

function fill(text: string): string {
  return text.replace(/\b(YOUR_API_KEY|YOUR_SERVER_ID|YOUR_WEBHOOK_SECRET|PRIVATE_FILE_ID|FILE_ID|FILE_PATH|PRESIGNED_URL)\b/g, (name) => {
    if (!(name in values)) throw new Error(`${name} has no value yet: an earlier example should have captured it`);
    return values[name];
  });
}

/** The example with the reader's placeholders filled in (not `captures`, whose keys are placeholder names). */
function resolve(example: ApiExample): ApiExample {
  const { captures, ...request } = example;
  return { ...(JSON.parse(fill(JSON.stringify(request))) as ApiExample), captures };
}

async function send(example: ApiExample): Promise<Response> {
  const bases = { appUrl: server.url, cdnUrl: server.ctx.config.cdnBaseUrl };
  const url = new URL(exampleUrl(example, bases));
  for (const [k, v] of example.query ?? []) url.searchParams.append(k, v);
  const headers = new Headers(example.headers ?? []);
  let body: BodyInit | undefined;
  const b = example.body;
  if (b?.kind === "multipart") {
    const form = new FormData();
    for (const [name, value] of b.fields) form.append(name, value);
    for (const [field, file] of b.files) form.append(field, new Blob([new Uint8Array(await fixture(file))], { type: "image/png" }), file);
    body = form;
  } else if (b?.kind === "json") {
    body = JSON.stringify(b.json);
  } else if (b?.kind === "binary") {
    headers.set("Content-Type", b.contentType);
    body = new Uint8Array(await fixture(b.localFile));
  } else if (b?.kind === "text") {
    headers.set("Content-Type", b.contentType);
    body = b.text;
  }
  return fetch(url, { method: example.method, headers, body });
}

function pick(json: unknown, path: string): unknown {
  return path.split(".").reduce<unknown>((node, key) => (node && typeof node === "object" ? (node as Record<string, unknown>)[key] : undefined), json);
}

test.beforeAll(async ({ server: started }) => {
  server = started;
  const { db } = server.ctx;
  const user = await createUser(db, { email: "docs@example.com", password: "docs-password", verified: true });
  const teamId = (await findPersonalTeam(db, user.id))!;
  const srv = await createServer(db, { teamId, name: "Docs RP" });
  const { secret } = await createApiKey(db, { serverId: srv.id, teamId, name: "docs", permissions: ["upload", "read", "logs:write"] });
  Object.assign(values, { YOUR_API_KEY: secret, YOUR_SERVER_ID: srv.id, YOUR_WEBHOOK_SECRET: srv.webhook_secret });
});

describe("docs examples against a live server", () => {
  it("runs every example exactly once", () => {
    expect([...RUN_ORDER].sort()).toEqual(Object.keys(API_EXAMPLES).sort());
  });

  it("renders each example as curl against this instance's base URL", () => {
    const bases = { appUrl: "https://stash.example.gg", cdnUrl: "https://cdn.example.gg" };
    expect(toCurl(API_EXAMPLES.quickStartUpload, bases)).toBe(
      ["curl -X POST https://stash.example.gg/api/upload", '-H "x-api-key: YOUR_API_KEY"', "-F category=screenshots", "-F file=@screenshot.png"].join(" \\\n  "),
    );
    expect(toCurl(API_EXAMPLES.searchMetadata, bases)).toContain(`--data-urlencode 'metadata={"case_number":"LSPD-2024-0117"}'`);
    expect(toCurl(API_EXAMPLES.transform, bases)).toContain("https://cdn.example.gg/f/FILE_PATH?w=320&format=webp");
    expect(toCurl(API_EXAMPLES.webhook, bases)).toContain('-F "files[0]=@bodycam.png"');
  });

  for (const name of RUN_ORDER) {
    const example = API_EXAMPLES[name] as ApiExample;
    it(`${example.id}: ${example.method} ${example.path} answers ${example.expectStatus}`, async () => {
      const res = await send(resolve(example));
      const text = example.method === "HEAD" ? "" : await res.text();
      expect(res.status, text.slice(0, 300)).toBe(example.expectStatus);
      const json = res.headers.get("content-type")?.includes("json") && text ? JSON.parse(text) : undefined;
      responses[name] = json;
      responseHeaders[name] = res.headers;
      for (const [placeholder, path] of Object.entries(example.captures ?? {})) {
        const value = pick(json, path);
        expect(typeof value, `${placeholder} from ${path}`).toBe("string");
        values[placeholder] = value as string;
      }
      if (example.expectStatus >= 400) expect(json).toMatchObject({ success: false, status: "error" });
    });
  }

  it("the documented upload answer lists only fields the real answer has", () => {
    const real = responses.firstUpload as Record<string, unknown>;
    expect(Object.keys(real)).toEqual(expect.arrayContaining(Object.keys(sampleUploadResponse("x"))));
    expect(Object.keys(real.data as object)).toEqual(expect.arrayContaining(Object.keys(sampleUploadResponse("x").data)));
    // A new server converts images to WebP, as the sample shows; the original name is kept for display.
    expect(real).toMatchObject({ mime_type: sampleUploadResponse("x").mime_type, original_filename: "photo.png" });
    expect(real.filename).toMatch(/\.webp$/);
  });

  it("the documented search answer lists only fields the real answer has", () => {
    const real = responses.search as { files: Record<string, unknown>[] };
    const documented = sampleSearchResponse("x");
    expect(Object.keys(real)).toEqual(expect.arrayContaining(Object.keys(documented)));
    expect(real.files.length).toBeGreaterThan(0);
    expect(Object.keys(real.files[0])).toEqual(expect.arrayContaining(Object.keys(documented.files[0])));
  });

  it("file responses carry every documented header", () => {
    const headers = responseHeaders.fileHead!;
    for (const [name] of FILE_RESPONSE_HEADERS) expect(headers.get(name), name).toBeTruthy();
    expect(headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(headers.get("content-security-policy")).toBe("sandbox");
    expect(responseHeaders.transform!.get("content-type")).toBe("image/webp");
  });

  it("the webhook answers like Discord, with attachment links to the stored file", () => {
    const message = responses.webhook as { attachments: { url: string; proxy_url: string }[] };
    expect(message.attachments).toHaveLength(1);
    expect(message.attachments[0].proxy_url).toMatch(new RegExp(`^${server.ctx.config.cdnBaseUrl}/f/${values.YOUR_SERVER_ID}/`));
  });
});
