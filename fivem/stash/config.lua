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
}
