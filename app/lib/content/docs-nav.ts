/** The docs' left navigation: every entry is the id of a section on /docs. */
export const DOCS_NAV: { group: string; items: { id: string; label: string }[] }[] = [
  {
    group: "Getting started",
    items: [
      { id: "quick-start", label: "Quick start" },
      { id: "authentication", label: "Authentication" },
      { id: "screenshot-integration", label: "Screenshot integration" },
      { id: "first-upload", label: "Your first upload" },
    ],
  },
  {
    group: "Use cases",
    items: [
      { id: "phone-scripts", label: "Phone scripts" },
      { id: "police-mdt", label: "Police MDT" },
      { id: "housing-security", label: "Housing and security" },
      { id: "inventory-items", label: "Inventory items" },
    ],
  },
  {
    group: "API reference",
    items: [
      { id: "api-overview", label: "Overview" },
      { id: "upload-api", label: "Upload API" },
      { id: "categories", label: "Categories" },
      { id: "file-types", label: "File types" },
      { id: "base64-uploads", label: "Base64 uploads from Lua" },
      { id: "presigned-uploads", label: "Presigned uploads" },
      { id: "resumable-uploads", label: "Resumable uploads" },
      { id: "search-api", label: "Search API" },
      { id: "download-api", label: "Download API" },
      { id: "private-files", label: "Private files and signed URLs" },
      { id: "evidence-cases", label: "Evidence cases" },
      { id: "file-serving", label: "File serving path" },
      { id: "image-transforms", label: "Image transforms" },
      { id: "video-and-previews", label: "Video, previews and placeholders" },
      { id: "response-headers", label: "Response headers" },
      { id: "discord-webhooks", label: "Discord webhook migration" },
      { id: "logs", label: "Logs" },
    ],
  },
  {
    group: "Guides",
    items: [
      { id: "integration-guide", label: "Integration guide" },
      { id: "guide-screenshot-basic", label: "screenshot-basic" },
      { id: "guide-lb-phone", label: "LB Phone" },
      { id: "guide-npwd", label: "NPWD" },
      { id: "guide-qb-phone", label: "qb-phone" },
      { id: "guide-sharex", label: "ShareX" },
      { id: "teams", label: "Teams and roles" },
      { id: "logs-migration", label: "Moving logs to Stash" },
      { id: "moving-to-stash", label: "Moving to Stash: your history" },
      { id: "troubleshooting", label: "Troubleshooting" },
      { id: "response-codes", label: "Response codes" },
    ],
  },
];
