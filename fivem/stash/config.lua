-- Set these in server.cfg rather than here, so the key never lands in a resource repository:
--   set stash_url "https://cdn.example.com"
--   set stash_api_key "sk_..."
Config = {
  BaseUrl = GetConvar('stash_url', 'http://localhost:3000'),
  ApiKey = GetConvar('stash_api_key', ''),
  DefaultCategory = GetConvar('stash_default_category', 'screenshots'),
  -- exports.stash:log sends entries in batches: every LogFlushMs, or at once when LogBatchSize wait.
  LogFlushMs = tonumber(GetConvar('stash_log_flush_ms', '5000')),
  LogBatchSize = tonumber(GetConvar('stash_log_batch_size', '100')),
  -- Players' IP addresses stay out of log metadata unless you turn this on.
  LogPlayerIp = GetConvar('stash_log_player_ip', 'false') == 'true',
  -- stash_import_scan rescues the Discord links of LB Phone, qb-phone and NPWD's galleries, plus the
  -- columns you add here: set stash_import_tables "my_gallery.url,mdt_evidence.image"
  ImportTables = GetConvar('stash_import_tables', ''),
  -- Optional: your Discord bot's token, so Stash can refresh expired links (used for that import only).
  DiscordBotToken = GetConvar('stash_discord_bot_token', ''),
}
