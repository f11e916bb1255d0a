/**
 * Copy-paste snippets for the API keys page's integration guide, built from this instance's
 * base URL and the selected server so they work unchanged once the key is pasted in.
 */
export interface SnippetContext {
  baseUrl: string;
  serverId: string;
  /** The key to show: the one just created, or a placeholder. */
  apiKey: string;
}

export const KEY_PLACEHOLDER = "YOUR_API_KEY";

export interface Snippet {
  id: string;
  title: string;
  description: string;
  language: "bash" | "lua" | "javascript" | "json";
  code: string;
}

export function uploadSnippets({ baseUrl, apiKey }: SnippetContext): Snippet[] {
  return [
    {
      id: "upload-curl",
      title: "Upload (curl)",
      description: "Multipart upload; the answer's url is the public CDN link.",
      language: "bash",
      code: `curl -X POST "${baseUrl}/api/upload" \\
  -H "x-api-key: ${apiKey}" \\
  -F "file=@screenshot.png" \\
  -F "category=phone_photos" \\
  -F "player_name=John Doe" \\
  -F "player_identifier=license:abc123" \\
  -F "is_public=true" \\
  -F 'metadata={"location":"Legion Square"}'`,
    },
    {
      id: "upload-lua",
      title: "Upload (Lua, server side)",
      description: "PerformHttpRequest cannot send binary multipart, so send the image as a data URI in JSON.",
      language: "lua",
      code: `local STASH_URL = "${baseUrl}"
local STASH_KEY = "${apiKey}" -- keep this on the server, never in client files

local function uploadImage(dataUri, playerName, category, cb)
  PerformHttpRequest(STASH_URL .. "/api/upload/base64", function(status, body)
    local res = body and json.decode(body) or {}
    if status == 201 and res.success then
      cb(res.url)
    else
      print(("Stash upload failed (%s): %s"):format(status, res.error or "Request failed"))
      cb(nil)
    end
  end, "POST", json.encode({
    file = dataUri,
    category = category or "other",
    player_name = playerName,
  }), { ["Content-Type"] = "application/json", ["x-api-key"] = STASH_KEY })
end`,
    },
    {
      id: "upload-js",
      title: "Upload (JavaScript)",
      description: "From Node 18+ or a NUI page that receives a presigned URL (see below).",
      language: "javascript",
      code: `const form = new FormData();
form.append("file", fileBlob, "evidence.jpg");
form.append("category", "police_evidence");
form.append("player_name", "Officer Smith");

const res = await fetch("${baseUrl}/api/upload", {
  method: "POST",
  headers: { "x-api-key": "${apiKey}" },
  body: form,
});
const body = await res.json();
if (!res.ok) throw new Error(body.error ?? "Request failed");
console.log(body.url); // public CDN link`,
    },
  ];
}

export function searchDownloadSnippets({ baseUrl, apiKey }: SnippetContext): Snippet[] {
  return [
    {
      id: "search-curl",
      title: "Search (curl)",
      description: "Filters: category, player_name, player_identifier, filename, from_date, to_date, metadata; page + limit (20 by default, 100 at most).",
      language: "bash",
      code: `curl "${baseUrl}/api/search?category=phone_photos&player_name=John&page=1&limit=20" \\
  -H "Authorization: Bearer ${apiKey}"`,
    },
    {
      id: "search-lua",
      title: "Search (Lua)",
      description: "A player's photos, newest first.",
      language: "lua",
      code: `PerformHttpRequest("${baseUrl}/api/search?player_identifier=" .. identifier .. "&limit=50", function(status, body)
  if status ~= 200 then return end
  for _, file in ipairs(json.decode(body).files) do
    print(file.original_filename, file.url)
  end
end, "GET", "", { ["x-api-key"] = "${apiKey}" })`,
    },
    {
      id: "search-js",
      title: "Search (JavaScript)",
      description: "",
      language: "javascript",
      code: `const res = await fetch("${baseUrl}/api/search?category=security_camera&limit=20", {
  headers: { Authorization: "Bearer ${apiKey}" },
});
const { files } = await res.json();`,
    },
    {
      id: "download-curl",
      title: "Download (curl)",
      description: "Public files need no key; private files need a key of their server.",
      language: "bash",
      code: `curl -L -o photo.jpg "${baseUrl}/api/download/FILE_ID" \\
  -H "Authorization: Bearer ${apiKey}"`,
    },
  ];
}

export function presignSnippets({ baseUrl, apiKey }: SnippetContext): Snippet[] {
  return [
    {
      id: "presign-lua",
      title: "1. Server: ask for a one-time upload URL",
      description: "The key stays on the server; the URL works once, with no key, for a few minutes.",
      language: "lua",
      code: `RegisterNetEvent("myscript:requestUploadUrl", function()
  local src = source
  PerformHttpRequest("${baseUrl}/api/upload/presign?category=phone_photos&expires_in=300", function(status, body)
    if status ~= 200 then return end
    TriggerClientEvent("myscript:uploadUrl", src, json.decode(body).url)
  end, "GET", "", { ["x-api-key"] = "${apiKey}" })
end)`,
    },
    {
      id: "presign-js",
      title: "2. Client / NUI: upload to it",
      description: "POST multipart (field file) or PUT the raw bytes.",
      language: "javascript",
      code: `const form = new FormData();
form.append("file", blob, "photo.jpg");
const res = await fetch(uploadUrl, { method: "POST", body: form });
const { url } = await res.json(); // public CDN link`,
    },
  ];
}

export function resourceConfigs({ baseUrl, apiKey }: SnippetContext, webhookHint: string): Snippet[] {
  return [
    {
      id: "screenshot-basic",
      title: "screenshot-basic",
      description: "Server side: take a player's screenshot and upload it straight to Stash (the key never reaches the client).",
      language: "lua",
      code: `exports["screenshot-basic"]:requestClientScreenshot(playerId, {
  encoding = "jpg",
  quality = 0.85,
}, function(err, dataUri)
  if err then return print(err) end
  PerformHttpRequest("${baseUrl}/api/upload/base64", function(status, body)
    local res = json.decode(body or "{}")
    print(status, res.url or res.error)
  end, "POST", json.encode({ file = dataUri, category = "screenshots" }), {
    ["Content-Type"] = "application/json",
    ["x-api-key"] = "${apiKey}",
  })
end)

-- Client side with a presigned URL (see "Presigned uploads"):
-- exports["screenshot-basic"]:requestScreenshotUpload(uploadUrl, "files[]", function(data)
--   local url = json.decode(data).url
-- end)`,
    },
    {
      id: "lb-phone-custom",
      title: "LB Phone (Custom)",
      description: "In lb-phone/shared/upload.lua add a Custom method, then select it in config.lua.",
      language: "lua",
      code: `-- lb-phone/config.lua
Config.UploadMethod = { Video = "Custom", Image = "Custom", Audio = "Custom" }

-- lb-phone/shared/upload.lua
UploadMethods.Custom = {
    Video = {
        url = "${baseUrl}/api/upload?category=phone_video",
        field = "file",
        headers = { ["x-api-key"] = "${apiKey}" },
        error = { path = "success", value = false },
        success = { path = "url" },
    },
    Image = {
        url = "${baseUrl}/api/upload?category=phone_photos",
        field = "file",
        headers = { ["x-api-key"] = "${apiKey}" },
        error = { path = "success", value = false },
        success = { path = "url" },
    },
    Audio = {
        url = "${baseUrl}/api/upload?category=phone_audio",
        field = "file",
        headers = { ["x-api-key"] = "${apiKey}" },
        error = { path = "success", value = false },
        success = { path = "url" },
    },
}`,
    },
    {
      id: "lb-phone-presigned",
      title: "LB Phone (presigned)",
      description:
        "Keeps the key off players' machines: for each upload the server hands the phone a one-time upload URL and the link the file will have. Set Config.UploadMethod.* to \"Presigned\".",
      language: "lua",
      code: `-- server side (e.g. lb-phone/server/custom/upload.lua)
local CATEGORIES = { Image = "phone_photos", Video = "phone_videos", Audio = "phone_audio" }

function GetPresignedUrl(source, uploadType)
  local p = promise.new()
  PerformHttpRequest("${baseUrl}/api/upload/presign?category=" .. (CATEGORIES[uploadType] or "other"), function(status, body)
    local res = status == 200 and json.decode(body) or nil
    -- upload: where the phone POSTs or PUTs the file; result: where the file will be
    p:resolve(res and { upload = res.upload, result = res.result } or nil)
  end, "GET", "", { ["x-api-key"] = "${apiKey}" })
  return Citizen.Await(p)
end`,
    },
    {
      id: "discord-webhook",
      title: "Scripts that post to a Discord webhook",
      description: webhookHint,
      language: "lua",
      code: `-- Before: Config.Webhook = "https://discord.com/api/webhooks/..."
Config.Webhook = "WEBHOOK_URL_FROM_THE_SERVER_PAGE"`,
    },
  ];
}

/** A ShareX custom uploader (.sxcu) for this instance and key. */
export function sharexConfig(baseUrl: string, appName: string, apiKey: string): Record<string, unknown> {
  return {
    Version: "15.0.0",
    Name: appName,
    DestinationType: "ImageUploader, TextUploader, FileUploader",
    RequestMethod: "POST",
    RequestURL: `${baseUrl}/api/upload`,
    Headers: { "x-api-key": apiKey },
    Body: "MultipartFormData",
    Arguments: { category: "screenshots" },
    FileFormName: "file",
    URL: "{json:url}",
    ErrorMessage: "{json:error}",
  };
}

export const RESPONSE_CODES: [string, string][] = [
  ["201", "Upload success"],
  ["200", "Download or search success"],
  ["400", "Missing required fields"],
  ["401", "Invalid API key"],
  ["403", "Server has no upload permission"],
  ["413", "File too large"],
  ["415", "File type not allowed on this server"],
  ["429", "Rate limited: wait for Retry-After seconds"],
];

export const TROUBLESHOOTING: [string, string][] = [
  ["401 Invalid API key", "Copy the key again (it is shown once; regenerate it if lost) and send it as x-api-key or Authorization: Bearer."],
  ["403 on upload", "The key belongs to another server, was revoked, or lacks the upload permission."],
  ["413 File too large", "Raise the server's max file size on its page, or free storage / upgrade your plan."],
  ["415 Type not allowed", "Enable the file type in the server's allowed file types."],
  ["Lua uploads arrive empty", "PerformHttpRequest cannot send binary multipart: post a data URI to /api/upload/base64 instead."],
  ["Images do not show in game", "Private files need a key; make the upload public (is_public=true) or set the server's default visibility to public."],
];
