import { sql, type Kysely } from "kysely";

/**
 * Forwarding matching log entries to Discord, through an outbox written in the ingest transaction
 * (so an acknowledged entry is never lost to a Discord outage or 429), and alerts evaluated every
 * minute: any match, more than N in a window, or nothing for a window.
 */
export const logForwardsAlerts = {
  async up(db: Kysely<unknown>) {
    await sql`CREATE TABLE log_forwards (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      dataset_id uuid NOT NULL REFERENCES log_datasets (id) ON DELETE CASCADE,
      webhook_url text NOT NULL,
      min_level text NOT NULL DEFAULT 'trace',
      resource text,
      contains text,
      -- Discord told us to wait (429) or failed: nothing is sent to it before this time.
      next_attempt_at timestamptz,
      attempts integer NOT NULL DEFAULT 0,
      last_error text,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
    await sql`CREATE INDEX log_forwards_dataset_idx ON log_forwards (dataset_id)`.execute(db);
    await sql`CREATE TABLE log_forward_queue (
      id bigserial PRIMARY KEY,
      forward_id uuid NOT NULL REFERENCES log_forwards (id) ON DELETE CASCADE,
      entry jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
    await sql`CREATE INDEX log_forward_queue_forward_idx ON log_forward_queue (forward_id, id)`.execute(db);
    await sql`CREATE TABLE log_alerts (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      dataset_id uuid NOT NULL REFERENCES log_datasets (id) ON DELETE CASCADE,
      name text NOT NULL,
      kind text NOT NULL CHECK (kind IN ('match', 'count', 'absence')),
      min_level text NOT NULL DEFAULT 'trace',
      resource text,
      contains text,
      threshold integer NOT NULL DEFAULT 1 CHECK (threshold >= 1),
      window_minutes integer NOT NULL DEFAULT 5 CHECK (window_minutes BETWEEN 1 AND 1440),
      cooldown_minutes integer NOT NULL DEFAULT 15 CHECK (cooldown_minutes BETWEEN 0 AND 10080),
      channel text NOT NULL CHECK (channel IN ('discord', 'email')),
      target text NOT NULL,
      firing boolean NOT NULL DEFAULT false,
      last_fired_at timestamptz,
      checked_until timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`DROP TABLE IF EXISTS log_alerts`.execute(db);
    await sql`DROP TABLE IF EXISTS log_forward_queue`.execute(db);
    await sql`DROP TABLE IF EXISTS log_forwards`.execute(db);
  },
};
