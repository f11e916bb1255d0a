-- Rescue the Discord links in your game database (docs/moving-to-stash.md).
--
--   stash_import_scan           finds every Discord attachment link in the phone galleries (LB Phone,
--                               qb-phone, NPWD) and the columns in stash_import_tables, and sends them
--                               to Stash, which brings each file that still exists.
--   stash_import_apply <id>     once that import has finished: rewrites each rescued link in those
--                               tables to its Stash address. Back the database up first.
--
-- Needs oxmysql. Both commands run from the server console only.

local KNOWN_TABLES = {
  { label = 'LB Phone', table = 'phone_photos', column = 'link' },
  { label = 'qb-phone', table = 'phone_gallery', column = 'image' },
  { label = 'NPWD', table = 'npwd_phone_gallery', column = 'image' },
}
-- URLs per request to Stash, and rows per rewrite statement.
local POST_BATCH = 500
local UPDATE_BATCH = 200
local WATCH_EVERY_MS = 5000

local function say(message)
  print(('[stash] %s'):format(message))
end

local function db()
  return exports.oxmysql
end

--- The tables to look in: the known phones' galleries plus stash_import_tables ("table.column,…").
local function configuredTables()
  local tables = {}
  for _, known in ipairs(KNOWN_TABLES) do
    tables[#tables + 1] = { label = known.label, table = known.table, column = known.column }
  end
  for entry in (Config.ImportTables or ''):gmatch('[^,%s]+') do
    -- Names go into the SQL between backticks, so only letters, digits and _ are taken.
    local name, column = entry:match('^([%w_]+)%.([%w_]+)$')
    if name then
      tables[#tables + 1] = { label = entry, table = name, column = column }
    else
      say(('ignoring "%s" in stash_import_tables: write it as table.column'):format(entry))
    end
  end
  return tables
end

--- Keeps the tables that exist in this database, each with its column's length.
local function existingTables(tables, callback)
  local found, index = {}, 0
  local function nextTable()
    index = index + 1
    local entry = tables[index]
    if not entry then return callback(found) end
    db():query('SELECT CHARACTER_MAXIMUM_LENGTH AS max_length FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? AND COLUMN_NAME = ?',
      { entry.table, entry.column }, function(rows)
        if rows and rows[1] then
          entry.maxLength = tonumber(rows[1].max_length)
          found[#found + 1] = entry
        end
        nextTable()
      end)
  end
  nextTable()
end

local DISCORD_LINKS = "(`%s` LIKE 'https://cdn.discordapp.com/attachments/%%' OR `%s` LIKE 'https://media.discordapp.net/attachments/%%')"

--- Every distinct Discord attachment link in the tables, and how many each table holds.
local function collectLinks(tables, callback)
  local links, seen, counts, index = {}, {}, {}, 0
  local function nextTable()
    index = index + 1
    local entry = tables[index]
    if not entry then return callback(links, counts) end
    local sql = ('SELECT DISTINCT `%s` AS link FROM `%s` WHERE ' .. DISCORD_LINKS):format(entry.column, entry.table, entry.column, entry.column)
    db():query(sql, {}, function(rows)
      rows = rows or {}
      counts[entry.table] = #rows
      for _, row in ipairs(rows) do
        if not seen[row.link] then
          seen[row.link] = true
          links[#links + 1] = row.link
        end
      end
      nextTable()
    end)
  end
  nextTable()
end

local function slice(list, first, last)
  local part = {}
  for i = first, math.min(last, #list) do part[#part + 1] = list[i] end
  return part
end

--- Sends the links as one import: a draft with the first batch, the rest in batches, then start.
local function sendLinks(links, callback)
  local token = Config.DiscordBotToken ~= '' and Config.DiscordBotToken or nil
  Stash.request('POST', '/api/imports', { source = 'urls', urls = slice(links, 1, POST_BATCH), draft = true, bot_token = token }, function(err, data)
    if err then return callback(err) end
    local id = data.import.id
    local from = POST_BATCH + 1
    local function nextBatch()
      if from > #links then
        return Stash.request('POST', '/api/imports/' .. id .. '/start', nil, function(startErr) callback(startErr, id) end)
      end
      local batch = slice(links, from, from + POST_BATCH - 1)
      from = from + POST_BATCH
      Stash.request('POST', '/api/imports/' .. id .. '/urls', { urls = batch }, function(batchErr)
        if batchErr then return callback(batchErr) end
        nextBatch()
      end)
    end
    nextBatch()
  end)
end

--- Finds the links and starts their import; calls back with (err, { id, links, counts }).
local function importScan(callback)
  existingTables(configuredTables(), function(tables)
    if #tables == 0 then return callback('none of the phone tables exist in this database; add yours with stash_import_tables') end
    collectLinks(tables, function(links, counts)
      if #links == 0 then return callback(nil, { id = nil, links = 0, counts = counts }) end
      sendLinks(links, function(err, id)
        callback(err, { id = id, links = #links, counts = counts })
      end)
    end)
  end)
end

local function over(state)
  return state == 'finished' or state == 'failed' or state == 'cancelled'
end

--- Prints the import's progress every few seconds until it ends.
local function watch(id)
  Stash.request('GET', '/api/imports/' .. id, nil, function(err, data)
    if err then return say('could not read the import: ' .. err) end
    local view, p = data.import, data.import.progress
    say(('import %s: %s, %d of %d (%d stored, %d already in Stash, %d not brought)'):format(id, view.state, p.done, p.total, p.stored, p.duplicates, p.failed))
    if not over(view.state) then return SetTimeout(WATCH_EVERY_MS, function() watch(id) end) end
    for _, failure in ipairs(view.failures or {}) do say(('  %s: %d'):format(failure.label, failure.count)) end
    if view.error then say('  stopped: ' .. view.error.message) end
    say(('Back up your database, then run: stash_import_apply %s'):format(id))
  end)
end

--- Rewrites each rescued link of one table in statements of UPDATE_BATCH rows; calls back with (changed, tooLong).
local function rewriteTable(entry, mapping, callback)
  local pairs_, tooLong = {}, 0
  for _, row in ipairs(mapping) do
    if entry.maxLength and #row.new > entry.maxLength then tooLong = tooLong + 1 else pairs_[#pairs_ + 1] = row end
  end
  local changed, from = 0, 1
  local function nextBatch()
    if from > #pairs_ then return callback(changed, tooLong) end
    local batch = slice(pairs_, from, from + UPDATE_BATCH - 1)
    from = from + UPDATE_BATCH
    local cases, ins, params, olds = {}, {}, {}, {}
    for _, row in ipairs(batch) do
      cases[#cases + 1] = 'WHEN ? THEN ?'
      params[#params + 1] = row.old
      params[#params + 1] = row.new
      ins[#ins + 1] = '?'
      olds[#olds + 1] = row.old
    end
    for _, old in ipairs(olds) do params[#params + 1] = old end
    -- IGNORE: LB Phone's link is part of its primary key; a row that would collide keeps its old link.
    local sql = ('UPDATE IGNORE `%s` SET `%s` = CASE `%s` %s END WHERE `%s` IN (%s)'):format(entry.table, entry.column, entry.column, table.concat(cases, ' '), entry.column, table.concat(ins, ','))
    db():update(sql, params, function(affected)
      changed = changed + (tonumber(affected) or 0)
      nextBatch()
    end)
  end
  nextBatch()
end

--- Rewrites the links an import rescued to their Stash addresses; calls back with (err, { [table] = { changed, too_long } }).
local function importApply(id, callback)
  Stash.request('GET', '/api/imports/' .. id, nil, function(err, data)
    if err then return callback(err) end
    if data.import.state ~= 'finished' then return callback(('import %s is %s; apply it once it has finished'):format(id, data.import.state)) end
    Stash.request('GET', '/api/imports/' .. id .. '/map.json', nil, function(mapErr, answer)
      if mapErr then return callback(mapErr) end
      existingTables(configuredTables(), function(tables)
        local result, index = {}, 0
        local function nextTable()
          index = index + 1
          local entry = tables[index]
          if not entry then return callback(nil, result) end
          rewriteTable(entry, answer.map or {}, function(changed, tooLong)
            result[entry.table] = { changed = changed, too_long = tooLong }
            nextTable()
          end)
        end
        nextTable()
      end)
    end)
  end)
end

RegisterCommand('stash_import_scan', function(source)
  if source ~= 0 then return end
  importScan(function(err, found)
    if err then return say('scan failed: ' .. err) end
    for name, count in pairs(found.counts) do say(('%s: %d Discord links'):format(name, count)) end
    if not found.id then return say('no Discord links to rescue') end
    say(('sent %d links to Stash as import %s'):format(found.links, found.id))
    watch(found.id)
  end)
end, true)

RegisterCommand('stash_import_apply', function(source, args)
  if source ~= 0 then return end
  local id = args[1]
  if not id then return say('usage: stash_import_apply <import id>') end
  importApply(id, function(err, result)
    if err then return say('rewrite failed: ' .. err) end
    for name, counts in pairs(result) do
      say(('%s: %d links now point at Stash%s'):format(name, counts.changed, counts.too_long > 0 and (', %d left as they were (longer than the column)'):format(counts.too_long) or ''))
    end
  end)
end, true)

exports('importScan', importScan)
exports('importApply', importApply)
