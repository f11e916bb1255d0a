-- Set these in server.cfg rather than here, so the key never lands in a resource repository:
--   set stash_url "https://cdn.example.com"
--   set stash_api_key "sk_..."
Config = {
  BaseUrl = GetConvar('stash_url', 'http://localhost:3000'),
  ApiKey = GetConvar('stash_api_key', ''),
  DefaultCategory = GetConvar('stash_default_category', 'screenshots'),
}
