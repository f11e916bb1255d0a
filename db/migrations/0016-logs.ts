import { sql, type Kysely } from "kysely";

/**
 * Logs: datasets per server and entries in a table partitioned by day (partitions are made ahead by
 * `ensureLogPartitions` and dropped whole by retention). BRIN on time suits append-only rows; GIN on
 * metadata serves `key = value` filters, a trigram index serves text search in messages.
 */
export const logs = {
  async up(db: Kysely<unknown>) {
    await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
    await sql`CREATE TABLE log_datasets (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      server_id text NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
      name text NOT NULL,
      retention_days integer NOT NULL CHECK (retention_days > 0),
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (server_id, name)
    )`.execute(db);
    // No foreign keys: a partitioned table's rows go with their partition, and a deleted server's
    // datasets take their entries out of every search (the join) until retention drops them.
    await sql`CREATE TABLE log_entries (
      id bigserial,
      ts timestamptz NOT NULL,
      dataset_id uuid NOT NULL,
      level text NOT NULL,
      resource text,
      message text NOT NULL,
      metadata jsonb NOT NULL DEFAULT '{}',
      received_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (ts, id)
    ) PARTITION BY RANGE (ts)`.execute(db);
    await sql`CREATE INDEX log_entries_ts_brin ON log_entries USING brin (ts)`.execute(db);
    await sql`CREATE INDEX log_entries_dataset_ts_idx ON log_entries (dataset_id, ts DESC, id DESC)`.execute(db);
    await sql`CREATE INDEX log_entries_metadata_gin ON log_entries USING gin (metadata jsonb_path_ops)`.execute(db);
    await sql`CREATE INDEX log_entries_message_trgm ON log_entries USING gin (message gin_trgm_ops)`.execute(db);
    await sql`ALTER TABLE usage_daily ADD COLUMN log_entries integer NOT NULL DEFAULT 0`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`ALTER TABLE usage_daily DROP COLUMN IF EXISTS log_entries`.execute(db);
    await sql`DROP TABLE IF EXISTS log_entries`.execute(db);
    await sql`DROP TABLE IF EXISTS log_datasets`.execute(db);
  },
};
