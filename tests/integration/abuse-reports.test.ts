import { describe, expect } from "vitest";
import { getAccountQuota } from "../../app/services/billing/quota.server.ts";
import { seedAccount } from "../helpers/api-seed.ts";
import { createSessionCookie, postForm, readToast, signUpAndSignIn } from "../helpers/auth.ts";
import { test } from "../helpers/fixtures.ts";
import { readOutbox, waitForOutboxMail } from "../helpers/mail.ts";
import type { TestServer } from "../helpers/server.ts";
import { form, pdf } from "../helpers/upload-fixtures.ts";
import type { FileId } from "../../app/lib/ids.ts";

let server: TestServer;
test.beforeAll(async ({ server: started }) => {
  server = started;
});

let nextAddress = 1;
/** Each report from its own address (the proxy header is trusted from loopback by default), so the per-address budget is tested on purpose only. */
const report = (body: Record<string, unknown>, ip = `203.0.113.${nextAddress++}`) =>
  server.request("/api/reports", { method: "POST", headers: { "Content-Type": "application/json", "X-Forwarded-For": ip }, body: JSON.stringify(body) });
const reportCount = async () => Number((await server.ctx.db.selectFrom("file_reports").select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow()).n);

async function hostedFile() {
  const owner = await seedAccount(server.ctx);
  await server.ctx.db.updateTable("users").set({ email: `owner-${owner.userId.slice(0, 8)}@example.com` }).where("id", "=", owner.userId).execute();
  const res = await server.request("/api/upload", { method: "POST", headers: { "x-api-key": owner.key }, body: form([{ field: "file", data: pdf(5000), filename: "doxx.pdf" }]) });
  expect(res.status).toBe(201);
  const body = (await res.json()) as { id: FileId; url: string };
  return { owner, ...body };
}

describe("abuse reports", () => {
  test("bad reports are refused and store nothing; a good one is queued", async () => {
    const file = await hostedFile();
    const before = await reportCount();
    const refusals: [Record<string, unknown>, number, string][] = [
      [{ reason: "illegal" }, 400, "Paste the address of the file"],
      [{ url: "https://example.com/cat.png", reason: "illegal" }, 400, "not the address of a file hosted here"],
      [{ url: file.url, reason: "boredom" }, 400, "Choose a reason"],
      [{ url: file.url, reason: "illegal", contact: "not-mail" }, 400, "valid email"],
      [{ url: file.url, reason: "illegal", details: "x".repeat(2001) }, 400, "at most 2000"],
      [{ url: file.url.replace(/[^/]+$/, "missing.pdf"), reason: "illegal" }, 404, "could not find a file"],
    ];
    for (const [body, status, message] of refusals) {
      const res = await report(body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(status);
      expect(((await res.json()) as { error: string }).error).toContain(message);
    }
    expect(await reportCount()).toBe(before);

    const ok = await report({ url: file.url, reason: "personal_data", details: "Shows my <b>home address</b>", contact: "victim@example.com" });
    expect(ok.status).toBe(201);
    const row = await server.ctx.db.selectFrom("file_reports").selectAll().where("file_id", "=", file.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ reason: "personal_data", details: "Shows my home address", contact: "victim@example.com", status: "open" });

    const page = await server.request("/report", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.url, "X-Forwarded-For": "198.51.100.7" },
      body: new URLSearchParams({ url: file.url, reason: "illegal", details: "", contact: "" }).toString(),
    });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Thank you. An administrator will review this file.");
    expect(await reportCount()).toBe(before + 2);
  });

  test("an admin hides a file at once (451 everywhere), the owner is told, then restores or deletes it", async () => {
    const file = await hostedFile();
    expect((await report({ url: file.url, reason: "illegal" })).status).toBe(201);
    expect((await report({ url: file.url, reason: "malware" })).status).toBe(201);
    const admin = await signUpAndSignIn(server, { role: "admin" });
    const user = await signUpAndSignIn(server);

    // Pending Reviews counts files with open reports; hiding this one takes it off the count.
    const pending = async () => {
      const html = (await (await server.request("/admin", { headers: { Cookie: admin.cookie } })).text()).replace(/<!-- -->/g, "");
      return Number(/Pending Reviews<\/[^>]+>[\s\S]*?tabular-nums[^>]*>(\d+)</.exec(html)?.[1]);
    };
    const pendingBefore = await pending();
    const openFiles = await server.ctx.db.selectFrom("file_reports").select("file_id").distinct().where("status", "=", "open").execute();
    expect(pendingBefore).toBe(openFiles.length);
    expect(openFiles.map((r) => r.file_id)).toContain(file.id);
    const queue = await (await server.request("/admin/reports", { headers: { Cookie: admin.cookie } })).text();
    expect(queue).toContain(file.url);
    expect(queue).toContain("Malware or phishing");

    expect((await postForm(server, "/admin/reports", { intent: "hide", fileId: file.id }, { cookie: user.cookie })).status).not.toBe(200);
    expect((await fetch(file.url)).status).toBe(200);

    const hidden = await postForm(server, "/admin/reports", { intent: "hide", fileId: file.id }, { cookie: admin.cookie });
    expect(readToast(hidden)).toMatchObject({ title: "File hidden" });
    expect(await pending()).toBe(pendingBefore - 1);
    const served = await fetch(file.url);
    expect(served.status).toBe(451);
    expect(await served.json()).toMatchObject({ code: "file_hidden" });
    expect((await server.request(`/api/download/${file.id}`)).status).toBe(451);
    const ownerSession = await createSessionCookie(server.ctx, file.owner.userId);
    expect((await server.request(`/api/media/${file.id}`, { headers: { Cookie: ownerSession.cookie } })).status).toBe(200);
    const mail = await waitForOutboxMail(server.dataDir, `owner-${file.owner.userId.slice(0, 8)}`, "hidden after a report");
    expect(mail.body).toContain("doxx.pdf");
    expect(await server.ctx.db.selectFrom("file_reports").select("status").where("file_id", "=", file.id).execute()).toEqual([{ status: "hidden" }, { status: "hidden" }]);

    const restored = await postForm(server, "/admin/reports", { intent: "restore", fileId: file.id }, { cookie: admin.cookie });
    expect(readToast(restored)).toMatchObject({ title: "File restored" });
    expect((await fetch(file.url)).status).toBe(200);
    expect(await (await server.request("/admin/reports", { headers: { Cookie: admin.cookie } })).text()).not.toContain(file.url);

    expect((await report({ url: file.url, reason: "copyright" })).status).toBe(201);
    const before = await getAccountQuota(server.ctx.db, file.owner.teamId);
    const deleted = await postForm(server, "/admin/reports", { intent: "delete", fileId: file.id }, { cookie: admin.cookie });
    expect(readToast(deleted)).toMatchObject({ title: "File deleted" });
    expect((await fetch(file.url)).status).toBe(404);
    expect((await getAccountQuota(server.ctx.db, file.owner.teamId)).usedBytes).toBe(before.usedBytes - 5000);
    expect(await server.ctx.db.selectFrom("file_reports").select("id").where("file_id", "=", file.id).execute()).toEqual([]);
  });

  test("dismissing a live file's reports closes them and tells nobody; a malformed file id is 404, not a server error", async () => {
    const file = await hostedFile();
    expect((await report({ url: file.url, reason: "other" })).status).toBe(201);
    const admin = await signUpAndSignIn(server, { role: "admin" });
    const mailsBefore = readOutbox(server.dataDir).length;
    const res = await postForm(server, "/admin/reports", { intent: "dismiss", fileId: file.id }, { cookie: admin.cookie });
    expect(readToast(res)).toMatchObject({ title: "Reports dismissed" });
    expect(await server.ctx.db.selectFrom("file_reports").select("status").where("file_id", "=", file.id).execute()).toEqual([{ status: "dismissed" }]);
    expect((await fetch(file.url)).status).toBe(200);
    expect(readOutbox(server.dataDir).length).toBe(mailsBefore);
    for (const intent of ["hide", "restore", "dismiss", "delete"]) {
      expect((await postForm(server, "/admin/reports", { intent, fileId: "not-a-file" }, { cookie: admin.cookie })).status).toBe(404);
    }
  });

  test("one address can file ten reports an hour; the eleventh is 429 and stores nothing", async () => {
    const file = await hostedFile();
    for (let i = 0; i < 10; i++) expect((await report({ url: file.url, reason: "other" }, "192.0.2.99")).status).toBe(201);
    const before = await reportCount();
    const refused = await report({ url: file.url, reason: "other" }, "192.0.2.99");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(await reportCount()).toBe(before);
    expect((await report({ url: file.url, reason: "other" }, "192.0.2.100")).status).toBe(201);
  });
});
