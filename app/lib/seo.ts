import type { MetaDescriptor } from "react-router";
import { PLAN_LIST } from "~/lib/plans";
import { pageTitle } from "~/lib/site";

export interface PageSeo {
  /** The page part of the title; the product name is appended. */
  title: string;
  description: string;
  keywords: readonly string[];
  /** Path of the page, e.g. "/pricing"; the canonical link is APP_URL + path. */
  path: string;
  appName: string;
  appUrl: string;
}

export function canonicalUrl(appUrl: string, path: string): string {
  return path === "/" ? `${appUrl}/` : `${appUrl}${path}`;
}

/** Title, description, keywords, canonical, Open Graph and Twitter tags for a public page. */
export function seoMeta(seo: PageSeo): MetaDescriptor[] {
  const title = pageTitle(seo.title, seo.appName);
  const url = canonicalUrl(seo.appUrl, seo.path);
  const image = `${seo.appUrl}/og-image.png`;
  return [
    { title },
    { name: "description", content: seo.description },
    { name: "keywords", content: seo.keywords.join(", ") },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:type", content: "website" },
    { property: "og:site_name", content: seo.appName },
    { property: "og:title", content: title },
    { property: "og:description", content: seo.description },
    { property: "og:url", content: url },
    { property: "og:image", content: image },
    { property: "og:image:alt", content: `${seo.appName}: media hosting for FiveM servers` },
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:title", content: title },
    { name: "twitter:description", content: seo.description },
    { name: "twitter:image", content: image },
  ];
}

type JsonLd = Record<string, unknown>;

export function organizationLd(appName: string, appUrl: string): JsonLd {
  return {
    "@context": "https://schema.org",
    "@type": "Organization",
    name: appName,
    url: `${appUrl}/`,
    logo: `${appUrl}/favicon.svg`,
  };
}

export function websiteLd(appName: string, appUrl: string, description: string): JsonLd {
  return {
    "@context": "https://schema.org",
    "@type": "WebSite",
    name: appName,
    url: `${appUrl}/`,
    description,
    publisher: { "@type": "Organization", name: appName },
  };
}

/** The plans as a Product with one Offer each, priced from the plan constants. */
export function productLd(appName: string, appUrl: string, description: string): JsonLd {
  return {
    "@context": "https://schema.org",
    "@type": "Product",
    name: `${appName} media hosting`,
    description,
    brand: { "@type": "Brand", name: appName },
    url: `${appUrl}/pricing`,
    offers: PLAN_LIST.map((plan) => ({
      "@type": "Offer",
      name: plan.name,
      price: plan.priceGbp.toFixed(2),
      priceCurrency: "GBP",
      availability: "https://schema.org/InStock",
      url: `${appUrl}/pricing`,
      description: `${plan.storageGb}GB storage, ${plan.retentionDays ? `${plan.retentionDays}-day retention` : "files kept forever"}`,
    })),
  };
}

export function techArticleLd(appName: string, appUrl: string, headline: string, description: string): JsonLd {
  return {
    "@context": "https://schema.org",
    "@type": "TechArticle",
    headline,
    description,
    url: `${appUrl}/docs`,
    proficiencyLevel: "Beginner",
    author: { "@type": "Organization", name: appName },
    publisher: { "@type": "Organization", name: appName, logo: { "@type": "ImageObject", url: `${appUrl}/favicon.svg` } },
  };
}

/** JSON for a <script type="application/ld+json">: `<` escaped so no string can close the tag. */
export function serializeJsonLd(data: JsonLd | JsonLd[]): string {
  return JSON.stringify(data).replace(/</g, "\\u003c");
}

/** The pages a crawler should index, in the order the sitemap lists them. */
export const PUBLIC_PAGES = [
  { path: "/", changefreq: "weekly", priority: "1.0" },
  { path: "/fivem-cdn", changefreq: "monthly", priority: "0.9" },
  { path: "/pricing", changefreq: "monthly", priority: "0.8" },
  { path: "/docs", changefreq: "weekly", priority: "0.8" },
  { path: "/auth", changefreq: "yearly", priority: "0.3" },
  { path: "/about", changefreq: "yearly", priority: "0.4" },
  { path: "/status", changefreq: "daily", priority: "0.3" },
  { path: "/terms", changefreq: "yearly", priority: "0.2" },
  { path: "/privacy", changefreq: "yearly", priority: "0.2" },
] as const;

/** Signed-in areas and the API: nothing a search engine should crawl. */
export const DISALLOWED_PATHS = [
  "/dashboard",
  "/servers",
  "/settings",
  "/gallery",
  "/upload",
  "/storage",
  "/api-keys",
  "/billing",
  "/analytics",
  "/audit",
  "/cases",
  "/admin",
  "/api/",
] as const;
