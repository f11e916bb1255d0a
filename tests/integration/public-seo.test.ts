import { NAMED_CATEGORIES } from "../../app/lib/categories.ts";
import { FILE_TYPE_GROUPS } from "../../app/lib/file-types.ts";
import { describe, expect, it } from "vitest";
import { stashTest } from "../helpers/fixtures.ts";
import { signUpAndSignIn } from "../helpers/auth.ts";
import type { TestServer } from "../helpers/server.ts";

const test = stashTest({ APP_URL: "https://stash.example.gg/", APP_NAME: "Vault" });

let server: TestServer;

test.beforeAll(async ({ server: started }) => {
  server = started;
});

describe("sitemap, robots and page metadata", () => {
  it("lists every public page in /sitemap.xml with canonical APP_URL links", async () => {
    const res = await server.request("/sitemap.xml");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/xml");
    const xml = await res.text();
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(locs).toEqual([
      "https://stash.example.gg/",
      "https://stash.example.gg/fivem-cdn",
      "https://stash.example.gg/pricing",
      "https://stash.example.gg/docs",
      "https://stash.example.gg/auth",
      "https://stash.example.gg/about",
      "https://stash.example.gg/status",
      "https://stash.example.gg/terms",
      "https://stash.example.gg/privacy",
    ]);
    expect(xml).not.toContain("/dashboard");
  });

  it("disallows the portal, admin and API in /robots.txt and points at the sitemap", async () => {
    const res = await server.request("/robots.txt");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/plain");
    const text = await res.text();
    for (const path of ["/dashboard", "/servers", "/settings", "/gallery", "/upload", "/storage", "/api-keys", "/billing", "/analytics", "/admin", "/api/"]) {
      expect(text).toContain(`Disallow: ${path}\n`);
    }
    expect(text).not.toMatch(/Disallow: \/(docs|pricing|fivem-cdn)?\n/);
    expect(text).toContain("Sitemap: https://stash.example.gg/sitemap.xml");
  });

  it("server-renders title, description, canonical, social tags and nonce'd JSON-LD under the instance's name", async () => {
    const res = await server.request("/pricing");
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("<title>Pricing | Vault</title>");
    expect(html).toMatch(/<meta name="description" content="[^"]{60,}"/);
    expect(html).toContain('<link rel="canonical" href="https://stash.example.gg/pricing"/>');
    expect(html).toContain('<meta property="og:site_name" content="Vault"/>');
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image"/>');

    const csp = res.headers.get("content-security-policy") ?? "";
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    const ld = /<script type="application\/ld\+json" nonce="([^"]+)">(.*?)<\/script>/s.exec(html);
    expect(ld?.[1]).toBe(nonce);
    const product = JSON.parse(ld![2]);
    expect(product["@type"]).toBe("Product");
    expect(product.offers.map((o: { name: string; price: string }) => `${o.name} ${o.price}`)).toEqual(["Street 0.00", "Hood 4.99", "Kingpin 9.99", "Boss 19.99"]);
    expect(product.offers.every((o: { priceCurrency: string }) => o.priceCurrency === "GBP")).toBe(true);
  });

  it("puts the instance's own base URL into every docs example", async () => {
    const html = await (await server.request("/docs")).text();
    expect(html).toContain("https://stash.example.gg/api/upload");
    expect(html).not.toMatch(/localhost|127\.0\.0\.1/);
  });

  it("lists every file type by group, the named categories and every key place on /docs", async () => {
    const html = (await (await server.request("/docs")).text()).replace(/<!-- -->/g, "");
    const section = (id: string) => html.slice(html.indexOf(`id="${id}"`), html.indexOf("</section>", html.indexOf(`id="${id}"`)));
    const types = section("file-types");
    for (const group of FILE_TYPE_GROUPS) {
      expect(types).toContain(group.label);
      for (const type of group.types) expect(types).toContain(type.name);
    }
    const categories = section("categories");
    for (const category of NAMED_CATEGORIES) expect(categories).toContain(category.name);
    for (const place of ["x-api-key", "Bearer", "apiKey", "api_key", "?api=", "key=", "token="]) expect(html).toContain(place);
  });

  it("sends the /fivem-cdn hero button to /dashboard when signed in and to /auth otherwise", async () => {
    const hero = (html: string) => {
      const tag = /<a [^>]*data-testid="hero-cta"[^>]*>/.exec(html)?.[0] ?? "";
      return /href="([^"]+)"/.exec(tag)?.[1];
    };
    expect(hero(await (await server.request("/fivem-cdn")).text())).toBe("/auth");
    const { cookie } = await signUpAndSignIn(server);
    const html = await (await server.request("/fivem-cdn", { headers: { Cookie: cookie } })).text();
    expect(hero(html)).toBe("/dashboard");
    expect(html).toContain("Go to Dashboard");
  });
});

describe("about, terms, privacy and status", () => {
  it("are real pages in the instance's name, linked from every footer and from /auth; no link goes nowhere", async () => {
    for (const [path, heading] of [
      ["/about", "About Vault"],
      ["/terms", "Terms of Service"],
      ["/privacy", "Privacy Policy"],
    ] as const) {
      const res = await server.request(path);
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).toMatch(new RegExp(`<h1[^>]*>${heading}</h1>`));
      expect(html).toContain(`<link rel="canonical" href="https://stash.example.gg${path}"/>`);
      expect(html).not.toContain("{app}");
    }
    const privacy = await (await server.request("/privacy")).text();
    expect(privacy).toContain("salted hash of your password");

    const home = await (await server.request("/")).text();
    const footer = home.slice(home.indexOf("<footer"), home.indexOf("</footer>"));
    for (const path of ["/docs", "/status", "/about", "/privacy", "/terms"]) expect(footer).toContain(`href="${path}"`);
    expect(home).not.toContain('href="#"');

    const auth = await (await server.request("/auth")).text();
    expect(auth).toContain('<link rel="canonical" href="https://stash.example.gg/auth"/>');
    // The same address whatever the tab or where sign-in leads.
    const signUp = await (await server.request("/auth?tab=signup&redirectTo=%2Fgallery")).text();
    expect(signUp).toContain('<link rel="canonical" href="https://stash.example.gg/auth"/>');
    expect(auth).toMatch(/href="\/terms"[^>]*>Terms of Service</);
    expect(auth).toMatch(/href="\/privacy"[^>]*>Privacy Policy</);
  });

  it("shows live status to people, uncached", async () => {
    const ok = await server.request("/status");
    expect(ok.status).toBe(200);
    expect(ok.headers.get("cache-control")).toBe("no-store");
    const html = await ok.text();
    expect(html).toContain("All systems operational");
    expect(html.match(/>Operational</g)?.length).toBeGreaterThanOrEqual(3);
  });
});
