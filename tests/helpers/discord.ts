import { createHash, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeDiscordUser {
  id: string;
  username: string;
  global_name?: string | null;
  avatar?: string | null;
  email?: string | null;
  verified?: boolean;
}

export interface FakeDiscord {
  url: string;
  env: Record<string, string>;
  /** The Discord account that the next authorization signs in as. */
  signInAs(user: FakeDiscordUser): void;
  close(): Promise<void>;
}

/**
 * A local OAuth2 server speaking Discord's protocol: /oauth2/authorize (auto-approves and
 * redirects back with code and state), /api/oauth2/token (checks client credentials and PKCE)
 * and /api/users/@me.
 */
export async function startFakeDiscord(clientId = "test-client", clientSecret = "test-secret"): Promise<FakeDiscord> {
  let current: FakeDiscordUser = { id: "100", username: "someone" };
  const codes = new Map<string, { user: FakeDiscordUser; challenge: string; redirectUri: string }>();
  const tokens = new Map<string, FakeDiscordUser>();

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { "Content-Type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (req.method === "GET" && url.pathname === "/oauth2/authorize") {
      if (url.searchParams.get("client_id") !== clientId) return json(400, { error: "invalid_client" });
      const code = randomBytes(12).toString("hex");
      const redirectUri = url.searchParams.get("redirect_uri")!;
      codes.set(code, { user: current, challenge: url.searchParams.get("code_challenge") ?? "", redirectUri });
      const back = new URL(redirectUri);
      back.searchParams.set("code", code);
      back.searchParams.set("state", url.searchParams.get("state") ?? "");
      res.writeHead(302, { Location: back.toString() });
      return res.end();
    }
    if (req.method === "POST" && url.pathname === "/api/oauth2/token") {
      let raw = "";
      for await (const chunk of req) raw += chunk;
      const form = new URLSearchParams(raw);
      const basic = Buffer.from((req.headers.authorization ?? "").replace(/^Basic /, ""), "base64").toString();
      const [id, secret] = basic ? basic.split(":").map(decodeURIComponent) : [form.get("client_id"), form.get("client_secret")];
      if (id !== clientId || secret !== clientSecret) return json(401, { error: "invalid_client" });
      const grant = codes.get(form.get("code") ?? "");
      const verifier = form.get("code_verifier") ?? "";
      const challenge = createHash("sha256").update(verifier).digest("base64url");
      if (!grant || grant.challenge !== challenge || grant.redirectUri !== form.get("redirect_uri")) {
        return json(400, { error: "invalid_grant", error_description: "Invalid authorization code" });
      }
      codes.delete(form.get("code")!);
      const accessToken = randomBytes(16).toString("hex");
      tokens.set(accessToken, grant.user);
      return json(200, { access_token: accessToken, token_type: "Bearer", expires_in: 604800, refresh_token: "r", scope: "identify email" });
    }
    if (req.method === "GET" && url.pathname === "/api/users/@me") {
      const user = tokens.get((req.headers.authorization ?? "").replace(/^Bearer /, ""));
      if (!user) return json(401, { message: "401: Unauthorized", code: 0 });
      return json(200, { global_name: null, avatar: null, email: null, verified: false, ...user });
    }
    json(404, { message: "404: Not Found" });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    env: {
      DISCORD_CLIENT_ID: clientId,
      DISCORD_CLIENT_SECRET: clientSecret,
      DISCORD_API_BASE: `${url}/api`,
      DISCORD_AUTHORIZE_URL: `${url}/oauth2/authorize`,
    },
    signInAs(user) {
      current = user;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
