-- Stash for FiveM: server-side exports wrapping the Stash script API.
-- PerformHttpRequest cannot send binary multipart, so uploads go as JSON with a data URI,
-- which the API accepts on POST /api/upload.

local function trimSlash(url)
  return (url:gsub('/+$', ''))
end

local function request(method, path, payload, callback)
  local headers = { ['Content-Type'] = 'application/json', ['x-api-key'] = Config.ApiKey }
  local body = payload and json.encode(payload) or ''
  PerformHttpRequest(trimSlash(Config.BaseUrl) .. path, function(status, text, _, errorText)
    local ok, data = pcall(json.decode, text or '')
    if not ok or type(data) ~= 'table' then data = nil end
    -- FiveM reports 4xx/5xx bodies through errorText on some builds.
    if not data and errorText then
      local parsed, errorData = pcall(json.decode, errorText:match('{.*}') or '')
      if parsed and type(errorData) == 'table' then data = errorData end
    end
    if status >= 200 and status < 300 and data and data.success then
      callback(nil, data)
    else
      callback((data and (data.error or data.message)) or ('HTTP ' .. tostring(status)), data)
    end
  end, method, body, headers)
end

local function licenseOf(source)
  if not source then return nil end
  return GetPlayerIdentifierByType(source, 'license')
end

--- Uploads a data URI (or bare base64) and calls back with (err, upload).
--- upload.url is the public link; upload.id the file id.
--- opts: filename, category, playerName, playerIdentifier, isPublic, metadata (table)
local function uploadDataUri(dataUri, opts, callback)
  opts = opts or {}
  request('POST', '/api/upload', {
    data = dataUri,
    filename = opts.filename,
    category = opts.category or Config.DefaultCategory,
    player_name = opts.playerName,
    player_identifier = opts.playerIdentifier,
    is_public = opts.isPublic ~= nil and tostring(opts.isPublic) or nil,
    metadata = opts.metadata and json.encode(opts.metadata) or nil,
  }, callback)
end

--- Takes a screenshot of a player's screen with screenshot-basic and uploads it,
--- tagged with the player's name and license. Calls back with (err, upload).
local function uploadPlayerScreenshot(source, opts, callback)
  opts = opts or {}
  exports['screenshot-basic']:requestClientScreenshot(source, { encoding = opts.encoding or 'jpg', quality = opts.quality or 0.85 },
    function(err, dataUri)
      if err then return callback(err) end
      uploadDataUri(dataUri, {
        filename = opts.filename,
        category = opts.category,
        playerName = opts.playerName or GetPlayerName(source),
        playerIdentifier = opts.playerIdentifier or licenseOf(source),
        isPublic = opts.isPublic,
        metadata = opts.metadata,
      }, callback)
    end)
end

--- Asks for a single-use upload URL a player's client can POST or PUT to without the key.
--- opts: category, expiresIn (seconds), maxSizeMb. Calls back with (err, url, answer).
local function createPresignedUpload(opts, callback)
  opts = opts or {}
  request('POST', '/api/upload/presign', {
    category = opts.category or Config.DefaultCategory,
    expires_in = opts.expiresIn,
    max_size_mb = opts.maxSizeMb,
  }, function(err, data)
    if err then return callback(err, nil, data) end
    callback(nil, data.presignedUrl or data.url, data)
  end)
end

exports('uploadDataUri', uploadDataUri)
exports('uploadPlayerScreenshot', uploadPlayerScreenshot)
exports('createPresignedUpload', createPresignedUpload)

if Config.ApiKey == '' then
  print('^3[stash] stash_api_key is not set: uploads will be refused. Add `set stash_api_key "sk_..."` to server.cfg.^0')
end
