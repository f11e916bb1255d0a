import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOutboundFetch, originKey, type OutboundFetch } from "~/services/platform/outbound-fetch.server";
import { DomainError } from "~/services/platform/domain-error.server";

/** A receiver on loopback that records what reached it and redirects where a path says. */
async function startReceiver() {
  const seen: Array<{ path: string; method: string; authorization?: string; body: string }> = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      seen.push({ path: req.url ?? "", method: req.method ?? "", authorization: req.headers.authorization, body });
      const redirect = new URL(req.url ?? "/", "http://x").searchParams.get("to");
      const status = Number(new URL(req.url ?? "/", "http://x").searchParams.get("status") ?? 302);
      if (redirect) {
        res.writeHead(status, { location: redirect }).end();
        return;
      }
      res.writeHead(200, { "content-type": "text/plain" }).end(`ok ${req.method} ${body}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return { seen, port, base: `http://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

async function refusal(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(DomainError);
  expect((error as DomainError).code).toBe("url_not_allowed");
  return error as DomainError;
}

describe("outbound fetch on a user's behalf", () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let other: Awaited<ReturnType<typeof startReceiver>>;
  let strict: OutboundFetch;
  let open: OutboundFetch;

  beforeAll(async () => {
    receiver = await startReceiver();
    other = await startReceiver();
    // The operator named `receiver` (as DISCORD_API_BASE is named); `other` is a user-given URL.
    strict = createOutboundFetch({ allowPrivateNetworks: false, trustedOrigins: [originKey(new URL(receiver.base))] });
    open = createOutboundFetch({ allowPrivateNetworks: true });
  });
  afterAll(async () => {
    await strict.close();
    await open.close();
    await receiver.close();
    await other.close();
  });

  it("refuses loopback, private, link-local and metadata addresses given as literals, sending nothing", async () => {
    for (const url of [`${other.base}/x`, "http://10.0.0.1/x", "http://169.254.169.254/latest/meta-data/", "http://[::1]:9/x", "http://[::ffff:127.0.0.1]:9/x", "http://0.0.0.0:9/"]) {
      const error = await refusal(strict.fetch(url));
      expect(error.message).toMatch(/address, which Stash does not fetch from/);
    }
    expect(other.seen).toHaveLength(0);
  });

  it("refuses a name that resolves to loopback, checked at connect time", async () => {
    const error = await refusal(strict.fetch(`http://localhost:${other.port}/by-name`));
    expect(error.message).toMatch(/^localhost resolves to (127\.0\.0\.1|::1), a loopback address/);
    expect(other.seen).toHaveLength(0);
  });

  it("fetches an origin the operator configured even on loopback", async () => {
    const response = await strict.fetch(`${receiver.base}/trusted`, { method: "POST", body: "hi" });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("ok POST hi");
  });

  it("checks every redirect hop: a trusted origin cannot bounce a request to a private one", async () => {
    const before = other.seen.length;
    await refusal(strict.fetch(`${receiver.base}/hop?to=${encodeURIComponent(`${other.base}/inside`)}`));
    expect(other.seen.length).toBe(before);
  });

  it("asks the feature's host rule on every hop", async () => {
    const onlyReceiver = (url: URL) => url.port === String(receiver.port);
    const error = await refusal(open.fetch(`${receiver.base}/hop?to=${encodeURIComponent(`${other.base}/elsewhere`)}`, { allowHost: onlyReceiver }));
    expect(error.message).toBe("127.0.0.1 is not a host this feature fetches from");
    expect(other.seen.some((entry) => entry.path === "/elsewhere")).toBe(false);
    expect((await open.fetch(`${receiver.base}/fine`, { allowHost: onlyReceiver })).status).toBe(200);
  });

  it("follows redirects when the operator allows private networks, without carrying credentials to another origin", async () => {
    const response = await open.fetch(`${receiver.base}/hop?to=${encodeURIComponent(`${other.base}/landed`)}`, { headers: { authorization: "Bot secret" } });
    expect(response.status).toBe(200);
    expect(receiver.seen.at(-1)?.authorization).toBe("Bot secret");
    const landed = other.seen.find((entry) => entry.path === "/landed");
    expect(landed).toBeDefined();
    expect(landed?.authorization).toBeUndefined();
  });

  it("keeps the method and body on 307 and turns a POST into a GET on 303", async () => {
    const kept = await open.fetch(`${receiver.base}/hop?status=307&to=${encodeURIComponent(`${other.base}/kept`)}`, { method: "POST", body: "payload" });
    expect(await kept.text()).toBe("ok POST payload");
    const seeOther = await open.fetch(`${receiver.base}/hop?status=303&to=${encodeURIComponent(`${other.base}/got`)}`, { method: "POST", body: "payload" });
    expect(await seeOther.text()).toBe("ok GET ");
  });

  it("stops after the redirect limit and refuses other schemes", async () => {
    const loop = `${receiver.base}/loop?to=${encodeURIComponent(`${receiver.base}/loop2?to=${encodeURIComponent(`${receiver.base}/done`)}`)}`;
    const error = await refusal(open.fetch(loop, { maxRedirects: 1 }));
    expect(error.message).toBe("More than 1 redirects");
    expect((await refusal(open.fetch("file:///etc/passwd"))).message).toBe("Only http and https URLs can be fetched, not file:");
    expect((await refusal(open.fetch(`http://user:pw@127.0.0.1:${other.port}/`))).message).toMatch(/user name or password/);
  });
});
