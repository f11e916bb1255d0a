import { KEY_PLACEHOLDER, sharexConfig } from "~/lib/integration-snippets";
import type { Bases } from "~/lib/content/api-examples";

/**
 * Script-side examples (Lua, JavaScript, script configs) for the docs and the /fivem-cdn use cases.
 * They talk to the same endpoints as the tested curl examples in api-examples.ts, using the same
 * field names and response fields, so a reader can move between the two.
 */
export interface Snippet {
  language: "lua" | "javascript" | "json" | "bash" | "cfg";
  filename?: string;
  code: string;
}

export function serverCfg(): Snippet {
  return {
    language: "cfg",
    filename: "server.cfg",
    code: `# Keep the key out of your resources: read it with GetConvar("stash_api_key", "")
set stash_api_key "sk_your_api_key_here"`,
  };
}

export function luaMultipartNote(): string {
  return "FiveM's PerformHttpRequest sends text, not binary multipart, so Lua uploads use the JSON form: a data URI (or bare base64) in the data field.";
}

export function luaBase64Upload({ appUrl }: Bases): Snippet {
  return {
    language: "lua",
    filename: "server/stash.lua",
    code: `local STASH_URL = "${appUrl}/api/upload/base64"
local STASH_KEY = GetConvar("stash_api_key", "")

-- data: a data URI ("data:image/jpeg;base64,...") or bare base64
function StashUpload(data, fields, cb)
    fields.data = data
    PerformHttpRequest(STASH_URL, function(status, body)
        local res = body and json.decode(body)
        if status ~= 201 or not res or res.error then
            return cb(nil, res and res.message or ("HTTP " .. tostring(status)))
        end
        cb(res.url, res)
    end, "POST", json.encode(fields), {
        ["Content-Type"] = "application/json",
        ["x-api-key"] = STASH_KEY,
    })
end`,
  };
}

export function screenshotBasicServer({ appUrl }: Bases): Snippet {
  return {
    language: "lua",
    filename: "server/screenshots.lua",
    code: `local STASH_KEY = GetConvar("stash_api_key", "")

-- Takes a screenshot of a player's screen and stores it on Stash; cb(url) or cb(nil, err)
function CapturePlayer(playerId, category, cb)
    exports["screenshot-basic"]:requestClientScreenshot(playerId, { encoding = "jpg", quality = 0.85 }, function(err, data)
        if err then return cb(nil, err) end
        PerformHttpRequest("${appUrl}/api/upload", function(status, body)
            local res = body and json.decode(body)
            if status ~= 201 or not res or res.error then
                return cb(nil, res and res.message or ("HTTP " .. tostring(status)))
            end
            cb(res.url)
        end, "POST", json.encode({
            data = data, -- screenshot-basic returns a data URI
            filename = ("%s-%d.jpg"):format(category, os.time()),
            category = category,
            player_name = GetPlayerName(playerId),
            player_identifier = GetPlayerIdentifierByType(playerId, "license"),
        }), { ["Content-Type"] = "application/json", ["x-api-key"] = STASH_KEY })
    end)
end`,
  };
}

export function presignServer({ appUrl }: Bases): Snippet {
  return {
    language: "lua",
    filename: "server/presign.lua",
    code: `local STASH_KEY = GetConvar("stash_api_key", "")

-- The server asks for a single-use upload URL; the key never leaves the server.
RegisterNetEvent("myphone:requestUploadUrl", function()
    local src = source
    PerformHttpRequest("${appUrl}/api/upload/presign", function(status, body)
        local res = body and json.decode(body)
        if status ~= 200 or not res then return end
        TriggerClientEvent("myphone:uploadUrl", src, res.url)
    end, "POST", json.encode({ category = "phone_photos" }), {
        ["Content-Type"] = "application/json",
        ["x-api-key"] = STASH_KEY,
    })
end)`,
  };
}

export function presignClient(): Snippet {
  return {
    language: "lua",
    filename: "client/camera.lua",
    code: `RegisterNetEvent("myphone:uploadUrl", function(uploadUrl)
    exports["screenshot-basic"]:requestScreenshotUpload(uploadUrl, "file", function(body)
        local res = json.decode(body)
        if res and res.url then
            SendNUIMessage({ action = "photoTaken", url = res.url })
        end
    end)
end)

TriggerServerEvent("myphone:requestUploadUrl")`,
  };
}

export function resumableUploadJs({ appUrl }: Bases): Snippet {
  return {
    language: "javascript",
    filename: "upload-pack.mjs",
    code: `// npm install tus-js-client — resumes by itself after a dropped connection
import fs from "node:fs";
import * as tus from "tus-js-client";

const file = fs.readFileSync("police-pack.zip");
const upload = new tus.Upload(file, {
  endpoint: "${appUrl}/api/uploads/tus",
  headers: { "x-api-key": process.env.STASH_API_KEY },
  chunkSize: 8 * 1024 * 1024,
  retryDelays: [0, 3000, 10000, 30000],
  metadata: { filename: "police-pack.zip", category: "resources" },
  onProgress: (sent, total) => console.log(\`\${Math.round((sent / total) * 100)} %\`),
  onSuccess: ({ lastResponse }) => console.log(JSON.parse(lastResponse.getBody()).url),
  onError: (error) => console.error(error.message),
});
upload.start();`,
  };
}

export function lbPhoneUpload({ appUrl }: Bases): Snippet {
  return {
    language: "lua",
    filename: "lb-phone/shared/upload.lua",
    code: `-- In config.lua set Config.UploadMethod.Video / .Image / .Audio = "Custom", then:
UploadMethods.Custom = {
    Video = {
        url = "${appUrl}/api/upload",
        field = "file",
        headers = { ["x-api-key"] = "API_KEY" },
        error = { path = "success", value = false },
        success = { path = "url" },
    },
    Image = {
        url = "${appUrl}/api/upload",
        field = "file",
        headers = { ["x-api-key"] = "API_KEY" },
        error = { path = "success", value = false },
        success = { path = "url" },
    },
    Audio = {
        url = "${appUrl}/api/upload",
        field = "file",
        headers = { ["x-api-key"] = "API_KEY" },
        error = { path = "success", value = false },
        success = { path = "url" },
    },
}`,
  };
}

/** LB Phone's presigned upload method: the server hands the phone where to upload and the link it will have. */
export function lbPhonePresigned({ appUrl }: Bases): Snippet {
  return {
    language: "lua",
    filename: "lb-phone/server/custom/upload.lua",
    code: `-- In config.lua set Config.UploadMethod.Video / .Image / .Audio = "Presigned", then:
local STASH_KEY = GetConvar("stash_api_key", "")
local CATEGORIES = { Image = "phone_photos", Video = "phone_videos", Audio = "phone_audio" }

function GetPresignedUrl(source, uploadType)
    local p = promise.new()
    local query = ("category=%s&player_name=%s"):format(CATEGORIES[uploadType] or "other", GetPlayerName(source) or "")
    PerformHttpRequest("${appUrl}/api/upload/presign?" .. query, function(status, body)
        local res = status == 200 and json.decode(body) or nil
        -- upload: where the phone sends the file (POST multipart or PUT); result: the file's link afterwards.
        p:resolve(res and { upload = res.upload, result = res.result } or nil)
    end, "GET", "", { ["x-api-key"] = STASH_KEY })
    return Citizen.Await(p)
end`,
  };
}

export function lbPhoneWhitelist({ cdnUrl }: Bases): Snippet {
  return {
    language: "lua",
    filename: "lb-phone/config.lua",
    code: `-- Media links are only accepted from whitelisted domains: add your Stash file host.
Config.UploadWhitelistedDomains = {
    "${new URL(cdnUrl).host}",
}`,
  };
}

export function npwdConfig({ appUrl }: Bases): Snippet {
  return {
    language: "json",
    filename: "npwd/config.json",
    code: `"images": {
  "url": "${appUrl}/api/upload",
  "type": "file",
  "imageEncoding": "jpg",
  "contentType": "multipart/form-data",
  "useContentType": false,
  "authorizationHeader": "Authorization",
  "authorizationPrefix": "Bearer",
  "useAuthorization": true,
  "returnedDataIndexes": ["data", "url"]
}`,
  };
}

export function qbPhoneWebhook({ appUrl }: Bases): Snippet {
  return {
    language: "lua",
    filename: "qb-phone/config.lua",
    code: `-- qb-phone uploads camera shots to a Discord webhook and reads attachments[1].proxy_url.
-- Stash answers in the same shape, so only the URL changes:
Config.Webhook = "${appUrl}/api/webhooks/YOUR_SERVER_ID/YOUR_WEBHOOK_SECRET"`,
  };
}

/** The same uploader file the API Keys page offers for download. */
export function sharexUploader({ appUrl }: Bases, appName: string): Snippet {
  return {
    language: "json",
    filename: `${appName.replace(/[^A-Za-z0-9_-]+/g, "-") || "stash"}.sxcu`,
    code: JSON.stringify(sharexConfig(appUrl, appName, KEY_PLACEHOLDER), null, 2),
  };
}

export function discordMigration({ appUrl }: Bases): Snippet {
  return {
    language: "lua",
    filename: "config.lua",
    code: `-- Before: attachment links that expire
-- Config.EvidenceWebhook = "https://discord.com/api/webhooks/1234567890/abcdef..."

-- After: the same script, permanent links
Config.EvidenceWebhook = "${appUrl}/api/webhooks/YOUR_SERVER_ID/YOUR_WEBHOOK_SECRET"`,
  };
}

export function jsUpload({ appUrl }: Bases): Snippet {
  return {
    language: "javascript",
    filename: "upload.mjs",
    code: `import { readFile } from "node:fs/promises";

const form = new FormData();
form.append("file", new Blob([await readFile("photo.png")], { type: "image/png" }), "photo.png");
form.append("category", "phone_photos");
form.append("player_identifier", "license:1a2b3c4d");

const res = await fetch("${appUrl}/api/upload", {
  method: "POST",
  headers: { "x-api-key": process.env.STASH_API_KEY },
  body: form,
});
const file = await res.json();
if (!file.success) throw new Error(\`\${file.code}: \${file.message}\`);
console.log(file.url);`,
  };
}

export function policeMdtLua({ appUrl }: Bases): Snippet {
  return {
    language: "lua",
    filename: "server/evidence.lua",
    code: `-- Private evidence: downloads need your server's key
StashUpload(photoDataUri, {
    filename = "evidence.jpg",
    category = "police_evidence",
    is_public = "false",
    metadata = json.encode({ case_number = caseNumber, officer = officerName }),
}, function(url, res)
    if not url then return print("evidence upload failed: " .. res) end
    MySQL.insert("INSERT INTO mdt_evidence (case_number, file_id) VALUES (?, ?)", { caseNumber, res.id })
end)

-- Later: every file of a case, newest first
local function urlencode(s)
    return (s:gsub("[^%w%-_%.~]", function(c) return ("%%%02X"):format(c:byte()) end))
end
PerformHttpRequest("${appUrl}/api/search?category=police_evidence&metadata=" .. urlencode(json.encode({ case_number = caseNumber })),
    function(status, body) local files = json.decode(body).files end,
    "GET", "", { ["x-api-key"] = GetConvar("stash_api_key", "") })`,
  };
}

export function phoneUseCase({ appUrl }: Bases): Snippet {
  return {
    language: "lua",
    filename: "server/phone.lua",
    code: `-- A phone photo from the camera app, visible in game straight away
StashUpload(photoDataUri, {
    filename = "photo.jpg",
    category = "phone_photos",
    player_name = GetPlayerName(src),
    player_identifier = GetPlayerIdentifierByType(src, "license"),
}, function(url)
    -- url: ${appUrl.replace(/\/$/, "")}/f/<server>/phone_photos/<file>.jpg, add ?w=320&format=webp for a thumbnail
    TriggerClientEvent("phone:photoSaved", src, url)
end)`,
  };
}

export function resourcesUseCase({ appUrl }: Bases): Snippet {
  return {
    language: "bash",
    filename: "publish-pack.sh",
    code: `# Host a clothing or vehicle pack preview (up to 50MB per file) and share the link
curl -X POST "${appUrl}/api/upload" \\
  -H "x-api-key: $STASH_API_KEY" \\
  -F "category=resources" \\
  -F 'metadata={"pack":"lspd-fleet","version":"2.1"}' \\
  -F "file=@vehicle-pack-preview.mp4"`,
  };
}

export function securityUseCase(): Snippet {
  return {
    language: "lua",
    filename: "server/cctv.lua",
    code: `-- A still every time a motion sensor trips. Footage auto-deletes after 30 days:
-- set a 30-day retention rule for the security_camera category on your server.
CapturePlayer(ownerId, "security_camera", function(url, err)
    if not url then return print("cctv upload failed: " .. err) end
    TriggerClientEvent("cctv:newFootage", ownerId, { camera = cameraId, url = url })
end)`,
  };
}
