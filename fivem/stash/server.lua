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

-- Shared with import.lua (the Discord link rescue), which is part of this resource.
Stash = { request = request }

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

-- Logs: entries wait in a queue per dataset and leave in batches (every Config.LogFlushMs, or when
-- Config.LogBatchSize are waiting); a 429 or 5xx answer, or no answer, retries the batch with backoff,
-- so a busy moment or a restart of Stash loses nothing.
local logQueues = {}
local flushPending = false
local MAX_LOG_ATTEMPTS = 6

local function playerTags(source)
  local tags = { player_name = GetPlayerName(source) }
  for _, identifier in ipairs(GetPlayerIdentifiers(source) or {}) do
    local kind = identifier:match('^(%w+):')
    if kind and (kind ~= 'ip' or Config.LogPlayerIp) then tags[kind] = identifier end
  end
  return tags
end

local function sendLogBatch(dataset, entries, attempt)
  local headers = { ['Content-Type'] = 'application/json', ['x-api-key'] = Config.ApiKey, ['X-Stash-Dataset'] = dataset }
  PerformHttpRequest(trimSlash(Config.BaseUrl) .. '/api/logs', function(status, _, responseHeaders, errorText)
    if status >= 200 and status < 300 then return end
    if (status == 0 or status == 429 or status >= 500) and attempt < MAX_LOG_ATTEMPTS then
      local retryAfter = tonumber(responseHeaders and (responseHeaders['Retry-After'] or responseHeaders['retry-after']) or nil)
      local delay = retryAfter and retryAfter * 1000 or math.min(60000, 1000 * 2 ^ attempt)
      SetTimeout(delay, function() sendLogBatch(dataset, entries, attempt + 1) end)
      return
    end
    print(('^1[stash] %d log entries for "%s" were not stored: %s^0'):format(#entries, dataset, errorText or ('HTTP ' .. tostring(status))))
  end, 'POST', json.encode({ logs = entries }), headers)
end

--- Sends every waiting log entry now.
local function flushLogs()
  flushPending = false
  for dataset, queue in pairs(logQueues) do
    logQueues[dataset] = nil
    for first = 1, #queue, Config.LogBatchSize do
      sendLogBatch(dataset, { table.unpack(queue, first, math.min(#queue, first + Config.LogBatchSize - 1)) }, 1)
    end
  end
end

--- Logs one entry: exports.stash:log('economy', 'info', 'Paid $500', { source = src, amount = 500 }).
--- A numeric metadata.source (a player) adds their name and identifiers (not their IP by default).
local function log(dataset, level, message, metadata)
  metadata = metadata or {}
  if tonumber(metadata.source) and tonumber(metadata.source) > 0 then
    for key, value in pairs(playerTags(tonumber(metadata.source))) do
      if metadata[key] == nil then metadata[key] = value end
    end
  end
  dataset = dataset or 'default'
  local queue = logQueues[dataset] or {}
  logQueues[dataset] = queue
  queue[#queue + 1] = {
    level = level or 'info',
    message = tostring(message),
    resource = GetInvokingResource and GetInvokingResource() or nil,
    metadata = metadata,
    timestamp = os.time(),
  }
  if #queue >= Config.LogBatchSize then
    flushLogs()
  elseif not flushPending then
    flushPending = true
    SetTimeout(Config.LogFlushMs, flushLogs)
  end
end

AddEventHandler('onResourceStop', function(name)
  if name == GetCurrentResourceName() then flushLogs() end
end)

exports('log', log)
exports('flushLogs', flushLogs)
exports('uploadDataUri', uploadDataUri)
exports('uploadPlayerScreenshot', uploadPlayerScreenshot)
exports('createPresignedUpload', createPresignedUpload)

if Config.ApiKey == '' then
  print('^3[stash] stash_api_key is not set: uploads will be refused. Add `set stash_api_key "sk_..."` to server.cfg.^0')
end
