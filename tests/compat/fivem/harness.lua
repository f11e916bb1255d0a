-- Runs the real fivem/stash resource outside the game: FiveM's natives are provided here, with
-- PerformHttpRequest sending real HTTP through curl. Each scenario prints one "RESULT <json>" line.
json = require('dkjson')

local convars = {
  stash_url = os.getenv('STASH_URL'),
  stash_api_key = os.getenv('STASH_API_KEY'),
  stash_import_tables = os.getenv('STASH_IMPORT_TABLES'),
  stash_discord_bot_token = os.getenv('STASH_DISCORD_BOT_TOKEN'),
}

function GetConvar(name, default)
  return convars[name] or default
end

function GetPlayerName(source)
  return 'Tommy Vercetti #' .. tostring(source)
end

function GetPlayerIdentifierByType(source, kind)
  return kind .. ':' .. string.rep('ab', 20) .. tostring(source)
end

function GetPlayerIdentifiers(source)
  return { GetPlayerIdentifierByType(source, 'license'), 'discord:1234567890' .. tostring(source), 'ip:203.0.113.' .. tostring(source) }
end

function GetInvokingResource()
  return 'qb-banking'
end

function GetCurrentResourceName()
  return 'stash'
end

local handlers = {}
function AddEventHandler(name, fn)
  handlers[name] = fn
end

-- Timers run on a simulated clock once the scenario's own code has returned, in due order, so a
-- 5-second flush or a retry's backoff takes no real time.
local timers, clock = {}, 0
function SetTimeout(ms, fn)
  timers[#timers + 1] = { at = clock + ms, fn = fn }
end

local function runTimers()
  while #timers > 0 do
    table.sort(timers, function(a, b) return a.at < b.at end)
    local timer = table.remove(timers, 1)
    clock = timer.at
    timer.fn()
  end
end

-- STASH_FAIL_LOG_POSTS=n answers the first n log posts with 503 without sending them, as an
-- overloaded or restarting server would.
local failLogPosts = tonumber(os.getenv('STASH_FAIL_LOG_POSTS') or '0')
local logPosts = { sent = 0, failed = 0 }

local function shellQuote(value)
  return "'" .. tostring(value):gsub("'", "'\\''") .. "'"
end

local function readFile(path)
  local handle = io.open(path, 'rb')
  if not handle then return nil end
  local content = handle:read('a')
  handle:close()
  return content
end

-- FiveM calls back with (status, body, headers, errorData); on HTTP errors body is nil and the
-- response text comes in errorData.
function PerformHttpRequest(url, callback, method, body, headers)
  if url:find('/api/logs', 1, true) then
    if logPosts.failed < failLogPosts then
      logPosts.failed = logPosts.failed + 1
      return callback(503, nil, {}, 'HTTP 503: Service Unavailable')
    end
    logPosts.sent = logPosts.sent + 1
  end
  local bodyFile, outFile = os.tmpname(), os.tmpname()
  local handle = io.open(bodyFile, 'wb')
  handle:write(body or '')
  handle:close()
  local args = { 'curl', '-s', '-X', method or 'GET', '-o', outFile, '-w', '%{http_code}', '--data-binary', '@' .. bodyFile }
  for name, value in pairs(headers or {}) do
    args[#args + 1] = '-H'
    args[#args + 1] = name .. ': ' .. value
  end
  args[#args + 1] = url
  local quoted = {}
  for i, arg in ipairs(args) do quoted[i] = shellQuote(arg) end
  local pipe = io.popen(table.concat(quoted, ' '))
  local status = tonumber(pipe:read('a')) or 0
  pipe:close()
  local text = readFile(outFile)
  os.remove(bodyFile)
  os.remove(outFile)
  if status >= 200 and status < 300 then
    callback(status, text, {}, nil)
  else
    callback(status, nil, {}, 'HTTP ' .. status .. ': ' .. (text or ''))
  end
end

-- A 1x1 PNG, as screenshot-basic would hand over a data URI.
local PIXEL = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='

-- oxmysql, as far as the resource uses it (query and update with ? parameters and a callback), over a
-- real MariaDB through the mariadb client: STASH_TEST_DB names the database.
local function sqlLiteral(value)
  if value == nil then return 'NULL' end
  if type(value) == 'number' then return tostring(value) end
  return "'" .. tostring(value):gsub('\\', '\\\\'):gsub("'", "''") .. "'"
end

local function bind(sql, params)
  local index = 0
  return (sql:gsub('%?', function()
    index = index + 1
    return sqlLiteral(params[index])
  end))
end

local function mariadb(sql)
  local file = os.tmpname()
  local handle = io.open(file, 'wb')
  handle:write(sql)
  handle:close()
  local pipe = io.popen(('mariadb -h 127.0.0.1 -P 3306 -u root --batch --raw -D %s < %s 2>&1'):format(shellQuote(os.getenv('STASH_TEST_DB')), shellQuote(file)))
  local output = pipe:read('a')
  local ok = pipe:close()
  os.remove(file)
  if not ok then error('mariadb: ' .. output) end
  local rows, header = {}, nil
  for line in output:gmatch('[^\n]+') do
    local fields = {}
    for field in (line .. '\t'):gmatch('([^\t]*)\t') do fields[#fields + 1] = field end
    if not header then
      header = fields
    else
      local row = {}
      for i, name in ipairs(header) do row[name] = fields[i] ~= 'NULL' and fields[i] or nil end
      rows[#rows + 1] = row
    end
  end
  return rows
end

local oxmysql = {
  query = function(_, sql, params, callback)
    callback(mariadb(bind(sql, params or {})))
  end,
  update = function(_, sql, params, callback)
    local rows = mariadb(bind(sql, params or {}) .. ';\nSELECT ROW_COUNT() AS affected;')
    callback(tonumber(rows[#rows].affected))
  end,
}

local commands = {}
function RegisterCommand(name, handler)
  commands[name] = handler
end

local registered = {}
exports = setmetatable({
  oxmysql = oxmysql,
  ['screenshot-basic'] = {
    requestClientScreenshot = function(_, _source, _options, callback)
      callback(false, PIXEL)
    end,
  },
}, {
  __call = function(_, name, fn)
    registered[name] = fn
  end,
})

local resource = arg[1]
dofile(resource .. '/config.lua')
dofile(resource .. '/server.lua')
dofile(resource .. '/import.lua')

local function report(name, err, data)
  print('RESULT ' .. json.encode({ scenario = name, err = err or json.null, data = data or json.null }))
end

local scenario = arg[2]
if scenario == 'data-uri' then
  registered.uploadDataUri(PIXEL, {
    filename = 'evidence.png',
    category = 'police_evidence',
    playerName = 'Officer Tenpenny',
    metadata = { case = 'LS-1042' },
  }, function(err, data) report(scenario, err, data) end)
elseif scenario == 'screenshot' then
  registered.uploadPlayerScreenshot(7, { category = 'screenshots' }, function(err, data) report(scenario, err, data) end)
elseif scenario == 'presign' then
  registered.createPresignedUpload({ category = 'phone_photos', expiresIn = 120 }, function(err, url) report(scenario, err, { url = url }) end)
elseif scenario == 'logs' then
  for i = 1, 150 do
    registered.log('economy', 'info', 'Paid $' .. i, { amount = i, source = i == 1 and 7 or nil })
  end
  registered.log('admin', 'warn', 'Noclip used', { source = 3 })
  runTimers()
  report(scenario, nil, logPosts)
elseif scenario == 'import-scan' then
  registered.importScan(function(err, found) report(scenario, err, found) end)
elseif scenario == 'import-apply' then
  registered.importApply(os.getenv('STASH_IMPORT_ID'), function(err, result) report(scenario, err, result) end)
elseif scenario == 'import-commands' then
  -- The console commands as an owner types them; their lines are what the test reads.
  commands.stash_import_scan(0, {})
  commands.stash_import_apply(0, {})
  report(scenario, nil, {})
elseif scenario == 'bad-key' then
  Config.ApiKey = 'sk_' .. string.rep('x', 40)
  registered.uploadDataUri(PIXEL, {}, function(err, data) report(scenario, err, data) end)
end
