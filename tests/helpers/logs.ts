import { expect } from "vitest";
import { postForm, signUpAndSignIn } from "./auth.ts";
import type { TestServer } from "./server.ts";

/** A server and a key as an owner makes them: the portal's form, then the key manager with "Write logs" ticked. */
export async function ownerWithLogKey(server: TestServer, name: string, permissions = ["upload", "logs:write", "read"]) {
  const owner = await signUpAndSignIn(server, { displayName: `${name} owner` });
  const created = await postForm(server, "/servers", { name, description: "", endpointUrl: "", maxFileSizeMb: "50", allowedFileTypes: "png" }, { cookie: owner.cookie });
  expect(created.status).toBe(200);
  const row = await server.ctx.db.selectFrom("servers").select(["id", "webhook_secret"]).where("name", "=", name).executeTakeFirstOrThrow();
  const key = await server.request("/api/keys", {
    method: "POST",
    headers: { Cookie: owner.cookie, Origin: server.url, "Content-Type": "application/json" },
    body: JSON.stringify({ name: "Logger", server_id: row.id, permissions }),
  });
  expect(key.status).toBe(201);
  return { owner, serverId: row.id, webhookSecret: row.webhook_secret, secret: ((await key.json()) as { api_key: string }).api_key };
}

/** A JSON POST's request init. */
export const jsonPost = (body: unknown, headers: Record<string, string> = {}) => ({ method: "POST", headers: { "Content-Type": "application/json", ...headers }, body: JSON.stringify(body) });
