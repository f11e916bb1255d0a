/** The import sources as the Import page offers them (shared with the browser: names and hints only). */
export const IMPORT_SOURCE_OPTIONS = [
  { value: "discord_export", label: "DiscordChatExporter export", hint: "The channel's .json export, or a .zip of it with its _Files folder (--media)." },
  { value: "urls", label: "List of URLs", hint: "Discord links from your game database, or links to your old host, one per line." },
  { value: "discord_bot", label: "Discord bot", hint: "Your own bot reads the channels and brings every attachment it can see." },
  { value: "fivemanage", label: "Fivemanage", hint: "Your Fivemanage API key lists your files; each is copied over." },
  { value: "zipline", label: "Zipline export", hint: "Zipline 3's export (Administration → Export) and your instance's address." },
  { value: "folder", label: "Folder (zip)", hint: "A .zip of the files; folders inside it are fine." },
] as const;

export type ImportSourceValue = (typeof IMPORT_SOURCE_OPTIONS)[number]["value"];

export const IMPORT_STATE_LABELS: Record<string, string> = {
  draft: "Waiting for more URLs",
  queued: "Waiting to start",
  running: "Importing",
  finished: "Finished",
  failed: "Stopped",
  cancelled: "Cancelled",
};

export const isImportActive = (state: string) => state === "draft" || state === "queued" || state === "running";
