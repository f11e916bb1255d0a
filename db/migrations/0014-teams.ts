import { sql, type Kysely } from "kysely";

/** Tables whose rows belong to an account's resources; wave 2 moves them from the user to the team. */
const OWNED_TABLES = ["servers", "api_keys", "files", "subscriptions", "storage_addons", "account_usage", "audit_logs", "cases", "file_shares"] as const;

/**
 * Teams own servers, files, keys, plan and quota. Every existing account gets a personal team
 * whose id is the account's id, so each owned row's `user_id` becomes its `team_id` unchanged and
 * single-user accounts keep every server, key, file and plan as they were.
 */
export const teams = {
  async up(db: Kysely<unknown>) {
    await sql`CREATE TABLE teams (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      name text NOT NULL,
      owner_user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
    await sql`CREATE INDEX teams_owner_idx ON teams (owner_user_id)`.execute(db);
    await sql`CREATE TABLE team_members (
      team_id uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      role text NOT NULL CHECK (role IN ('owner', 'admin', 'developer', 'member')),
      -- The member's permissions; an admin may tailor them, the owner always holds every one.
      permissions text[] NOT NULL,
      joined_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (team_id, user_id)
    )`.execute(db);
    await sql`CREATE INDEX team_members_user_idx ON team_members (user_id)`.execute(db);
    await sql`CREATE TABLE team_invitations (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      team_id uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
      email text NOT NULL,
      role text NOT NULL CHECK (role IN ('admin', 'developer', 'member')),
      permissions text[] NOT NULL,
      token_hash text NOT NULL UNIQUE,
      invited_by_user_id uuid REFERENCES users (id) ON DELETE SET NULL,
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'accepted', 'declined', 'revoked')),
      expires_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      answered_at timestamptz
    )`.execute(db);
    await sql`CREATE INDEX team_invitations_team_idx ON team_invitations (team_id, created_at DESC)`.execute(db);
    await sql`CREATE INDEX team_invitations_email_idx ON team_invitations (lower(email)) WHERE status = 'pending'`.execute(db);
    await sql`ALTER TABLE sessions ADD COLUMN team_id uuid REFERENCES teams (id) ON DELETE SET NULL`.execute(db);

    await sql`INSERT INTO teams (id, name, owner_user_id, created_at)
      SELECT id, COALESCE(NULLIF(display_name, ''), split_part(email, '@', 1), 'Personal'), id, created_at FROM users`.execute(db);
    await sql`INSERT INTO team_members (team_id, user_id, role, permissions, joined_at)
      SELECT id, id, 'owner', ARRAY['view_media', 'delete_media', 'manage_servers', 'manage_keys', 'view_logs', 'manage_billing', 'manage_members'], created_at FROM users`.execute(db);

    for (const table of OWNED_TABLES) {
      await sql`ALTER TABLE ${sql.table(table)} DROP CONSTRAINT ${sql.id(`${table}_user_id_fkey`)}`.execute(db);
      await sql`ALTER TABLE ${sql.table(table)} RENAME COLUMN user_id TO team_id`.execute(db);
      await sql`ALTER TABLE ${sql.table(table)} ADD CONSTRAINT ${sql.id(`${table}_team_id_fkey`)} FOREIGN KEY (team_id) REFERENCES teams (id) ON DELETE CASCADE`.execute(db);
    }
  },
  async down(db: Kysely<unknown>) {
    for (const table of OWNED_TABLES) {
      await sql`ALTER TABLE ${sql.table(table)} DROP CONSTRAINT ${sql.id(`${table}_team_id_fkey`)}`.execute(db);
      await sql`ALTER TABLE ${sql.table(table)} RENAME COLUMN team_id TO user_id`.execute(db);
      await sql`ALTER TABLE ${sql.table(table)} ADD CONSTRAINT ${sql.id(`${table}_user_id_fkey`)} FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE`.execute(db);
    }
    await sql`ALTER TABLE sessions DROP COLUMN IF EXISTS team_id`.execute(db);
    await sql`DROP TABLE IF EXISTS team_invitations`.execute(db);
    await sql`DROP TABLE IF EXISTS team_members`.execute(db);
    await sql`DROP TABLE IF EXISTS teams`.execute(db);
  },
};
