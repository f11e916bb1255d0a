import { index, layout, route, type RouteConfig } from "@react-router/dev/routes";

export default [
  layout("routes/public/layout.tsx", [
    index("routes/public/home.tsx"),
    route("fivem-cdn", "routes/public/fivem-cdn.tsx"),
    route("pricing", "routes/public/pricing.tsx"),
    route("docs", "routes/public/docs.tsx"),
    route("about", "routes/public/info-page.tsx", { id: "about" }),
    route("terms", "routes/public/info-page.tsx", { id: "terms" }),
    route("privacy", "routes/public/info-page.tsx", { id: "privacy" }),
    route("status", "routes/public/status.tsx"),
    route("report", "routes/public/report.tsx"),
  ]),
  route("v/:id", "routes/public/share.tsx"),
  route("s/:token", "routes/public/share-link.tsx"),
  route("s/:token/raw", "routes/public/share-link-raw.ts"),
  route("sitemap.xml", "routes/public/sitemap.ts"),
  route("robots.txt", "routes/public/robots.ts"),

  // The script API: game scripts and tools, authenticated by key or signed URL (public reads need none), CORS-open.
  route("api/health", "routes/api/script/health.ts"),
  route("api/search", "routes/api/script/search.ts"),
  route("api/upload", "routes/api/script/upload.ts"),
  route("api/upload/base64", "routes/api/script/upload-base64.ts"),
  route("api/upload/presign", "routes/api/script/upload-presign.ts"),
  route("api/upload/presigned/:token", "routes/api/script/upload-presigned.ts"),
  route("api/uploads/tus", "routes/api/script/resumable-upload.ts", { id: "resumable-upload-create" }),
  route("api/uploads/tus/:uploadId", "routes/api/script/resumable-upload.ts", { id: "resumable-upload" }),
  route("api/webhooks/:serverId/:secret", "routes/api/script/webhook.ts"),
  route("api/openapi.json", "routes/api/script/openapi.ts"),
  route("api/download", "routes/api/script/download.ts"),
  route("api/download/:id", "routes/api/script/download-by-id.ts"),
  route("api/files/:id", "routes/api/script/file.ts"),
  route("api/files/:id/signed-url", "routes/api/script/file-signed-url.ts"),
  route("api/reports", "routes/api/script/reports.ts"),
  // Stripe's events, authenticated by their signature.
  route("api/stripe/webhook", "routes/api/stripe-webhook.ts"),
  // Endpoints the portal calls with the session cookie; same-origin only.
  route("api/billing/:action", "routes/api/portal/billing.ts"),
  route("api/media/:id", "routes/api/portal/media.ts"),
  route("api/portal/upload", "routes/api/portal/upload.ts"),
  route("api/portal/files.zip", "routes/api/portal/files-zip.ts"),
  route("api/portal/uploads/tus", "routes/api/portal/resumable-upload.ts", { id: "portal-resumable-upload-create" }),
  route("api/portal/uploads/tus/:uploadId", "routes/api/portal/resumable-upload.ts", { id: "portal-resumable-upload" }),
  route("api/keys", "routes/api/portal/keys.ts"),
  route("api/keys/:id", "routes/api/portal/key.ts"),
  route("api/*", "routes/api/not-found.ts"),

  route("auth", "routes/auth/auth.tsx"),
  route("auth/sign-out", "routes/auth/sign-out.ts"),
  route("auth/confirm", "routes/auth/confirm.tsx"),
  route("auth/forgot-password", "routes/auth/forgot-password.tsx"),
  route("auth/reset-password", "routes/auth/reset-password.tsx"),
  route("auth/confirm-email-change", "routes/auth/confirm-email-change.tsx"),
  route("auth/discord", "routes/auth/discord.ts"),
  route("auth/discord/callback", "routes/auth/discord-callback.ts"),

  route("dashboard/connection-test", "routes/portal/connection-test.ts"),
  route("api-keys/sharex.sxcu", "routes/portal/sharex-config.ts"),
  route("audit/export", "routes/portal/audit-export.ts"),
  layout("routes/portal/layout.tsx", [
    route("dashboard", "routes/portal/dashboard.tsx"),
    route("servers", "routes/portal/servers.tsx"),
    route("servers/:serverId", "routes/portal/server-detail.tsx"),
    route("api-keys", "routes/portal/api-keys.tsx"),
    route("analytics", "routes/portal/analytics.tsx"),
    route("audit", "routes/portal/audit.tsx"),
    route("billing", "routes/portal/billing.tsx"),
    route("gallery", "routes/portal/gallery.tsx"),
    route("gallery/:fileId", "routes/portal/file-detail.tsx"),
    route("upload", "routes/portal/upload.tsx"),
    route("storage", "routes/portal/storage.tsx"),
    route("settings", "routes/portal/settings.tsx"),
  ]),

  layout("routes/admin/layout.tsx", [
    route("admin", "routes/admin/dashboard.tsx"),
    route("admin/servers", "routes/admin/servers.tsx"),
    // Another owner's server, read-only, inside the admin layout (its sidebar shows All Servers).
    route("admin/servers/:serverId", "routes/portal/server-detail.tsx", { id: "admin-server-detail" }),
    route("admin/users", "routes/admin/users.tsx"),
    route("admin/reports", "routes/admin/reports.tsx"),
  ]),

  route("admin/users/:userId/plan", "routes/admin/user-plan.ts"),

  route("*", "routes/public/not-found.tsx"),
] satisfies RouteConfig;
