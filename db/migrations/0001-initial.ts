import { sql, type Kysely } from "kysely";

// Plain SQL, one statement per entry: it reads like the schema it creates and runs
// unchanged on PostgreSQL 15+ and on PGlite.
const up = [
  `CREATE EXTENSION IF NOT EXISTS pg_trgm`,
  `CREATE TABLE users (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    email text,
    email_verified_at timestamptz,
    password_hash text,
    display_name text,
    avatar_url text,
    role text NOT NULL DEFAULT 'user' CHECK (role IN ('user', 'moderator', 'admin')),
    created_at timestamptz NOT NULL DEFAULT now(),
    last_sign_in_at timestamptz
  )`,
  `CREATE UNIQUE INDEX users_email_key ON users (lower(email)) WHERE email IS NOT NULL`,
  `CREATE TABLE identities (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    provider text NOT NULL,
    provider_user_id text NOT NULL,
    username text,
    avatar text,
    email text,
    created_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (provider, provider_user_id),
    UNIQUE (user_id, provider)
  )`,
  `CREATE TABLE sessions (
    id text PRIMARY KEY,
    user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    expires_at timestamptz NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    ip text,
    user_agent text
  )`,
  `CREATE INDEX sessions_user_id_idx ON sessions (user_id)`,
  `CREATE TABLE auth_tokens (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    purpose text NOT NULL CHECK (purpose IN ('email_confirm', 'password_reset')),
    token_hash text NOT NULL UNIQUE,
    expires_at timestamptz NOT NULL,
    used_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE TABLE servers (
    id text PRIMARY KEY,
    user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name text NOT NULL,
    description text,
    endpoint_url text,
    max_file_size_mb integer NOT NULL DEFAULT 50 CHECK (max_file_size_mb > 0),
    allowed_file_types text[] NOT NULL DEFAULT '{jpg,jpeg,png,gif,mp4,pdf}',
    storage_quota_gb integer NOT NULL DEFAULT 5,
    storage_used_bytes bigint NOT NULL DEFAULT 0 CHECK (storage_used_bytes >= 0),
    status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive', 'maintenance')),
    default_public boolean NOT NULL DEFAULT true,
    strip_metadata boolean NOT NULL DEFAULT true,
    convert_to_webp boolean NOT NULL DEFAULT true,
    webhook_secret text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX servers_user_id_idx ON servers (user_id, created_at DESC)`,
  `CREATE TABLE retention_rules (
    server_id text NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
    category text NOT NULL,
    days integer NOT NULL CHECK (days > 0),
    PRIMARY KEY (server_id, category)
  )`,
  `CREATE TABLE api_keys (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    server_id text NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
    user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name text NOT NULL,
    key_prefix text NOT NULL,
    key_hash text NOT NULL UNIQUE,
    permissions text[] NOT NULL DEFAULT '{upload,read}',
    status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'revoked')),
    expires_at timestamptz,
    last_used_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX api_keys_user_id_idx ON api_keys (user_id, created_at DESC)`,
  `CREATE TABLE upload_grants (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    token_hash text NOT NULL UNIQUE,
    server_id text NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
    api_key_id uuid REFERENCES api_keys (id) ON DELETE SET NULL,
    constraints jsonb NOT NULL DEFAULT '{}',
    expires_at timestamptz NOT NULL,
    used_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE TABLE files (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    server_id text NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
    user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    storage_key text NOT NULL UNIQUE,
    filename text NOT NULL,
    original_filename text NOT NULL,
    category text NOT NULL,
    mime_type text NOT NULL,
    size_bytes bigint NOT NULL CHECK (size_bytes >= 0),
    sha256 text NOT NULL,
    width integer,
    height integer,
    duration_ms integer,
    is_public boolean NOT NULL,
    player_name text,
    player_identifier text,
    metadata jsonb NOT NULL DEFAULT '{}',
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz,
    expiry_notified_at timestamptz,
    UNIQUE (server_id, category, filename)
  )`,
  `CREATE INDEX files_server_created_idx ON files (server_id, created_at DESC, id)`,
  `CREATE INDEX files_server_category_created_idx ON files (server_id, category, created_at DESC)`,
  `CREATE INDEX files_server_player_identifier_idx ON files (server_id, player_identifier)`,
  `CREATE INDEX files_user_created_idx ON files (user_id, created_at DESC, id)`,
  `CREATE INDEX files_expires_at_idx ON files (expires_at) WHERE expires_at IS NOT NULL`,
  `CREATE INDEX files_filename_trgm_idx ON files USING gin (lower(filename) gin_trgm_ops)`,
  `CREATE INDEX files_original_filename_trgm_idx ON files USING gin (lower(original_filename) gin_trgm_ops)`,
  `CREATE INDEX files_player_name_trgm_idx ON files USING gin (lower(player_name) gin_trgm_ops)`,
  `CREATE INDEX files_metadata_idx ON files USING gin (metadata jsonb_path_ops)`,
  `CREATE TABLE file_variants (
    file_id uuid NOT NULL REFERENCES files (id) ON DELETE CASCADE,
    variant text NOT NULL,
    storage_key text NOT NULL UNIQUE,
    mime_type text NOT NULL,
    size_bytes bigint NOT NULL,
    width integer,
    height integer,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (file_id, variant)
  )`,
  `CREATE TABLE subscriptions (
    user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    tier text NOT NULL DEFAULT 'free' CHECK (tier IN ('free', 'starter', 'professional', 'business')),
    status text NOT NULL DEFAULT 'active',
    stripe_customer_id text UNIQUE,
    stripe_subscription_id text UNIQUE,
    current_period_end timestamptz,
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE TABLE storage_addons (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    gb integer NOT NULL CHECK (gb > 0),
    expires_at timestamptz,
    stripe_reference text UNIQUE,
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX storage_addons_user_idx ON storage_addons (user_id)`,
  `CREATE TABLE account_usage (
    user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    used_bytes bigint NOT NULL DEFAULT 0 CHECK (used_bytes >= 0),
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE TABLE audit_logs (
    id bigserial PRIMARY KEY,
    user_id uuid REFERENCES users (id) ON DELETE CASCADE,
    server_id text REFERENCES servers (id) ON DELETE CASCADE,
    api_key_id uuid REFERENCES api_keys (id) ON DELETE SET NULL,
    action text NOT NULL,
    ip text,
    detail jsonb NOT NULL DEFAULT '{}',
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX audit_logs_user_created_idx ON audit_logs (user_id, created_at DESC)`,
  `CREATE INDEX audit_logs_server_created_idx ON audit_logs (server_id, created_at DESC)`,
  `CREATE TABLE usage_daily (
    server_id text NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
    day date NOT NULL,
    uploads integer NOT NULL DEFAULT 0,
    upload_bytes bigint NOT NULL DEFAULT 0,
    downloads integer NOT NULL DEFAULT 0,
    download_bytes bigint NOT NULL DEFAULT 0,
    api_calls integer NOT NULL DEFAULT 0,
    PRIMARY KEY (server_id, day)
  )`,
  `CREATE TABLE stripe_events (
    id text PRIMARY KEY,
    type text NOT NULL,
    processed_at timestamptz NOT NULL DEFAULT now()
  )`,
];

const down = [
  "stripe_events",
  "usage_daily",
  "audit_logs",
  "account_usage",
  "storage_addons",
  "subscriptions",
  "file_variants",
  "files",
  "upload_grants",
  "api_keys",
  "retention_rules",
  "servers",
  "auth_tokens",
  "sessions",
  "identities",
  "users",
].map((table) => `DROP TABLE IF EXISTS ${table}`);

async function run(db: Kysely<unknown>, statements: string[]) {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export const initial = {
  up: (db: Kysely<unknown>) => run(db, up),
  down: (db: Kysely<unknown>) => run(db, down),
};
