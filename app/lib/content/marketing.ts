/**
 * Every marketing claim and piece of copy on the public pages, in one place an operator can edit.
 * Prices, storage and retention are NOT here: they come from app/lib/plans.ts, which billing and
 * quota checks share. `{app}` in a string is replaced by the instance's APP_NAME when shown.
 */

export interface Stat {
  value: string;
  label: string;
}

export interface Feature {
  icon: FeatureIcon;
  title: string;
  body: string;
}

export type FeatureIcon = "zap" | "shield" | "globe" | "infinity" | "code" | "camera" | "film" | "gauge" | "webhook" | "lock";

export interface CompatibleScript {
  name: string;
  kind: "Phone" | "Police MDT" | "Security camera" | "Screenshot" | "Custom";
  note: string;
}

export interface FaqEntry {
  question: string;
  answer: string;
}

export const CLAIMS = {
  activeServers: "500+",
  mediaProcessed: "50TB+",
  pointsOfPresence: "45+",
  /** The /fivem-cdn page rounds its edge-location count up. */
  pointsOfPresenceCdnPage: "50+",
  averageResponse: "<100ms",
  uptime: "99.9%",
  bandwidthReduction: "80%+",
  setupTime: "about 5 minutes",
} as const;

export const NAV_LINKS = [
  { label: "FiveM CDN", to: "/fivem-cdn" },
  { label: "Pricing", to: "/pricing" },
  { label: "Docs", to: "/docs" },
] as const;

/** Placeholders until the operator fills in real destinations. */
export const FOOTER_LINKS = [
  { label: "Help Center", href: "/docs" },
  { label: "Status", href: "/status" },
  { label: "About", href: "/about" },
  { label: "Privacy", href: "/privacy" },
  { label: "Terms", href: "/terms" },
  { label: "Report a file", href: "/report" },
] as const;

export const TAGLINE = "Media hosting for FiveM roleplay servers";

export const HOME = {
  title: "FiveM Media CDN and File Hosting",
  description:
    "Permanent media hosting for FiveM roleplay servers. Phone photos, MDT evidence, security-camera footage and screenshots upload with one API key and are served from a global CDN, with links that never expire.",
  keywords: ["FiveM CDN", "FiveM media hosting", "FiveM image upload", "Discord webhook alternative", "LB Phone upload", "screenshot-basic", "roleplay server hosting"],
  eyebrow: "Built for FiveM roleplay",
  headline: "Every shot, every clip, every piece of evidence.",
  headlineAccent: "Stashed for good.",
  lead: "{app} replaces the Discord webhooks your phone, police MDT and security-camera scripts upload to. Change one URL, keep every link working, and serve it all from a global CDN.",
  emailLabel: "Email address",
  emailPlaceholder: "you@yourserver.gg",
  primaryCta: "Get Started Free",
  secondaryCta: "Read the docs",
  reassurance: ["New accounts get 5GB free", "No credit card needed", "Setup in about 5 minutes"],
  stats: [
    { value: CLAIMS.mediaProcessed, label: "Media processed" },
    { value: CLAIMS.activeServers, label: "Active servers" },
    { value: CLAIMS.pointsOfPresence, label: "Global points of presence" },
    { value: CLAIMS.averageResponse, label: "Average response" },
  ] satisfies Stat[],
  featuresTitle: "Everything your city's scripts throw at it",
  featuresLead: "One API key per server. Images, video, audio and resource packs, uploaded from Lua, JavaScript or plain HTTP.",
  features: [
    { icon: "zap", title: "Drop-in for Discord webhooks", body: "Point an existing webhook URL at {app} and the script keeps working. No Lua changes, no expiring attachment links." },
    { icon: "globe", title: "Global CDN", body: `Files are served from ${CLAIMS.pointsOfPresence} points of presence with long-lived caching, so photos open instantly in game.` },
    { icon: "camera", title: "Image transforms", body: "Resize, crop and convert to WebP or AVIF on the fly with ?w=, ?h= and ?format= on any public image link." },
    { icon: "shield", title: "Keys that stay secret", body: "Presigned upload URLs let a player's client upload without ever seeing your API key." },
    { icon: "film", title: "Video and audio", body: "Bodycam clips, voice notes and dashcam recordings up to 50MB per file, streamed with range requests." },
    { icon: "code", title: "A real API", body: "Upload, search by player, category, date or metadata, and download — documented with copy-ready examples." },
  ] satisfies Feature[],
  scriptsTitle: "Works with the scripts you already run",
  scriptsLead: "Ready means tested against the script's real upload requests.",
  scripts: [
    { name: "LB Phone", kind: "Phone", note: "Camera, gallery and video uploads" },
    { name: "NPWD", kind: "Phone", note: "Photo uploads via the image URL setting" },
    { name: "qb-phone", kind: "Phone", note: "Camera app screenshots" },
    { name: "ps-mdt", kind: "Police MDT", note: "Mugshots and evidence photos" },
    { name: "CCTV and bodycam scripts", kind: "Security camera", note: "Anything that posts to a Discord webhook" },
    { name: "screenshot-basic", kind: "Screenshot", note: "requestScreenshotUpload straight to the API" },
    { name: "ShareX", kind: "Screenshot", note: "Custom uploader for staff screenshots" },
    { name: "Your own resources", kind: "Custom", note: "Multipart, JSON base64 or data-URI uploads" },
  ] satisfies CompatibleScript[],
  ctaTitle: "Stop losing evidence to expired links",
  ctaLead: "Create a server, copy your API key, change one URL. Your city is on {app} in about 5 minutes.",
};

export const FIVEM_CDN = {
  title: "FiveM CDN for Screenshots, Phone Photos and Evidence",
  description:
    "A FiveM CDN that replaces Discord webhooks: upload phone photos, police evidence, security footage and resource packs with one API key, served from 50+ edge locations with links that never expire.",
  keywords: ["FiveM CDN", "FiveM Discord webhook replacement", "FiveM screenshot hosting", "FiveM evidence upload", "FiveM phone images", "FiveM resource hosting"],
  eyebrow: "FiveM CDN",
  headline: "The CDN your FiveM server should have had from day one",
  lead: "Discord was never a file host. {app} stores what your scripts upload, keeps it as long as your plan says, and serves it fast from wherever your players are.",
  heroCtaSignedIn: "Go to Dashboard",
  heroCtaSignedOut: "Start Free",
  heroSecondary: "See pricing",
  comparisonTitle: "Chat webhooks vs {app}",
  comparisonLead: "Most servers start by posting screenshots to a Discord channel. Here is what that costs you.",
  comparisonColumns: ["", "Discord webhooks", "{app}"],
  comparison: [
    { topic: "Link lifetime", webhook: "Attachment links expire after about a day", us: "Permanent links on paid plans; 30 days on Street" },
    { topic: "Made for", webhook: "Chat messages", us: "Media and file hosting" },
    { topic: "Rate limits", webhook: "Shared per channel, easy to hit in a busy city", us: "Per server, sized for uploads" },
    { topic: "Search", webhook: "Scroll the channel", us: "By player, category, date or metadata via the API" },
    { topic: "Image resizing", webhook: "None", us: "On the fly: ?w=&h=&format=webp" },
    { topic: "Privacy", webhook: "Anyone in the channel sees everything", us: "Public or private per file, private needs your key" },
    { topic: "Migration", webhook: "—", us: "Change the webhook URL, nothing else" },
  ],
  featuresTitle: "Built for how roleplay servers actually work",
  features: [
    { icon: "gauge", title: `${CLAIMS.averageResponse} average response`, body: "Long immutable caching on every public file keeps phone galleries snappy." },
    { icon: "globe", title: `${CLAIMS.pointsOfPresenceCdnPage} edge locations`, body: "Players in Europe, the Americas and Asia all load from nearby." },
    { icon: "infinity", title: "Unlimited uploads", body: "Every plan, including the free one. You pay for storage, not requests." },
    { icon: "gauge", title: `${CLAIMS.bandwidthReduction} less bandwidth`, body: "Serve WebP thumbnails instead of full-size PNG screenshots." },
    { icon: "lock", title: "Private evidence", body: "Mark police evidence private; downloads then need your server's key." },
    { icon: "webhook", title: "Webhook compatible", body: "A Discord-shaped response, so scripts that read attachments[0].url keep working." },
  ] satisfies Feature[],
  useCasesTitle: "One API, every kind of upload",
  useCasesLead: "Example code for phone, resource, police and security scripts.",
  pricingTitle: "Simple pricing, from £4.99 per month",
  pricingLead: "Start free with 5GB. Upgrade when your city grows.",
  ctaTitle: "Move your city off Discord webhooks today",
  ctaLead: `Setup takes ${CLAIMS.setupTime}. No credit card needed.`,
};

export const PRICING = {
  title: "Pricing",
  description: "Simple monthly plans for FiveM media hosting, from free with 5GB to 200GB. Unlimited uploads, API access and global CDN on every plan. No setup fees, cancel anytime.",
  keywords: ["FiveM CDN pricing", "FiveM media hosting price", "FiveM image hosting plans", "Discord webhook alternative pricing"],
  eyebrow: "Pricing",
  headline: "Plans that scale with your city",
  lead: "From £4.99 per month. Start on Street for free: new accounts get 5GB, no credit card needed.",
  planCta: "Get Started",
  freePlanCta: "Start Free",
  mostPopular: "Most Popular",
  perMonth: "/month",
  addonsTitle: "Need more room? Add storage",
  addonsLead: "Buy extra storage on any plan from the billing page, 1GB to 1000GB at a time, at your plan's rate. Extra storage lasts until the end of the current billing cycle.",
  reasonsTitle: "Why server owners choose {app}",
  reasons: [
    { icon: "zap", title: "Setup in about 5 minutes", body: "Create a server, copy the key, change a URL." },
    { icon: "shield", title: `${CLAIMS.uptime} uptime`, body: "Your evidence locker does not go down when Discord does." },
    { icon: "infinity", title: "Unlimited uploads", body: "On every plan. Storage is the only meter." },
    { icon: "lock", title: "No setup fees", body: "Pay monthly, cancel anytime, keep your data until the period ends." },
  ] satisfies Feature[],
  faqTitle: "Frequently asked questions",
  faq: [
    { question: "Can I upgrade or downgrade at any time?", answer: "Yes. Upgrades and downgrades can happen at any time and take effect immediately." },
    { question: "What happens on the free plan after 30 days?", answer: "Files on Street are kept for 30 days after upload and then removed. Paid plans keep files forever." },
    { question: "Do I need a credit card to start?", answer: "No. New accounts get 5GB free with no credit card needed." },
    {
      question: "Is there a limit on uploads?",
      answer:
        "No. Uploads are unlimited on all plans; each file can be up to 50MB on every plan. Large files can be sent resumably (tus), so an upload over a slow or dropped connection continues where it stopped instead of starting again.",
    },
    { question: "Do all plans include the API and the CDN?", answer: "Yes. API access and global CDN delivery are included on every plan." },
    { question: "Are there setup fees or contracts?", answer: "No setup fees and no contracts. Cancel anytime." },
  ] satisfies FaqEntry[],
  ctaTitle: "Ready to stash your city's media?",
  ctaLead: "Start free today. Upgrade when you need more storage.",
};

export const DOCS = {
  title: "API Documentation",
  description: "How to upload, search and serve FiveM media with the {app} API: API keys, multipart and base64 uploads from Lua, presigned uploads, Discord-webhook migration, image transforms and per-script guides.",
  keywords: ["FiveM upload API", "FiveM CDN API", "screenshot-basic upload", "LB Phone custom upload", "NPWD image upload", "qb-phone screenshot", "ShareX custom uploader"],
  headline: "API Documentation",
  lead: "Everything a FiveM script needs to upload to {app}, find files again and serve them to players.",
};

export const CTA = {
  primary: "Get Started Free",
  secondary: "View Pricing",
};

/** Replaces `{app}` with the instance's product name. */
export function brand(text: string, appName: string): string {
  return text.replaceAll("{app}", appName);
}
