import { sql } from "kysely";
import type { Db } from "../../../db/index";
import type { FileRecord } from "../../../db/schema";
import { reserveQuotaSql } from "~/services/billing/quota.server";
import { usageDay } from "~/services/api-keys/key-usage.server";
import { wantsMp4Copy } from "~/services/media/video.server";
import { fileExpirySql, planRetentionDaysSql } from "~/services/retention/expiry.server";
import type { StoredUpload, UploadTarget } from "~/services/uploads/store-upload.server";

export interface UploadRowFields {
  category: string;
  /** One upload's display name from the request's fields (`filename`); ignored for several files. */
  filename?: string;
  isPublic: boolean;
  playerName: string | null;
  playerIdentifier: string | null;
  metadata: Record<string, unknown>;
  /** The uploader asked to keep the files forever; honoured where the plan keeps files. */
  keepForever: boolean;
}

/**
 * Everything an upload changes in the database, in one statement (one round trip, one commit, on
 * the script API's hottest path): reserves the files' total size of the owner's quota, adds it to
 * the server's usage and today's counters, inserts the rows with their expiry (plan and retention
 * rule read in the same statement) and the variants. Each part runs only when the quota UPDATE
 * took the bytes, so an upload past the quota changes nothing and answers null.
 */
export async function insertUploadedFiles(db: Db, target: UploadTarget, uploads: StoredUpload[], fields: UploadRowFields, now: Date): Promise<FileRecord[] | null> {
  const total = uploads.reduce((sum, u) => sum + u.sizeBytes, 0);
  const files = uploads.map(
    (u) => sql`(
      ${u.storageKey}, ${u.filename}, ${uploads.length === 1 && fields.filename ? fields.filename : u.originalFilename}, ${u.mimeType},
      ${u.sizeBytes}::bigint, ${u.sha256}, ${u.width}::int, ${u.height}::int, ${u.durationMs}::int, ${u.thumbhash ?? null},
      ${wantsMp4Copy(u.mimeType, u.durationMs)}::boolean
    )`,
  );
  const variants = uploads.flatMap((u) =>
    u.variants.map((v) => sql`(${u.storageKey}, ${v.variant}, ${v.storageKey}, ${v.mimeType}, ${v.sizeBytes}::bigint, ${v.width}::int, ${v.height}::int)`),
  );
  const gate = sql`EXISTS (SELECT 1 FROM quota)`;
  const keepForever = sql<boolean>`(${fields.keepForever}::boolean AND policy.plan_days IS NULL)`;
  const { rows } = await sql<FileRecord>`
    WITH quota AS (${reserveQuotaSql(target.teamId, total, now)}), server_usage AS (
      UPDATE servers SET storage_used_bytes = storage_used_bytes + ${total}::bigint WHERE id = ${target.serverId} AND ${gate}
    ), daily AS (
      INSERT INTO usage_daily (server_id, day, uploads, upload_bytes)
      SELECT ${target.serverId}, ${usageDay(now)}::date, ${uploads.length}, ${total}::bigint WHERE ${gate}
      ON CONFLICT (server_id, day) DO UPDATE SET uploads = usage_daily.uploads + excluded.uploads, upload_bytes = usage_daily.upload_bytes + excluded.upload_bytes
    ), policy AS (
      SELECT ${planRetentionDaysSql(target.teamId)} AS plan_days,
        (SELECT r.days FROM retention_rules r WHERE r.server_id = ${target.serverId} AND r.category = ${fields.category} AND r.days > 0) AS rule_days
    ), inserted AS (
      INSERT INTO files (
        server_id, team_id, storage_key, filename, original_filename, category, mime_type, size_bytes, sha256, width, height,
        duration_ms, thumbhash, is_public, player_name, player_identifier, metadata, created_at, expires_at, retention_exempt,
        mp4_wanted_at, uploaded_via, api_key_id
      )
      SELECT ${target.serverId}, ${target.teamId}::uuid, u.storage_key, u.filename, u.original_filename, ${fields.category}, u.mime_type,
        u.size_bytes, u.sha256, u.width, u.height, u.duration_ms, u.thumbhash, ${fields.isPublic}, ${fields.playerName}, ${fields.playerIdentifier},
        ${JSON.stringify(fields.metadata)}::jsonb, ${now}::timestamptz,
        ${fileExpirySql(sql`policy.plan_days`, sql`policy.rule_days`, keepForever, now)}, ${keepForever},
        -- Paid plans get their MP4 copy made in the background at once; free ones on first request.
        CASE WHEN u.wants_mp4 AND policy.plan_days IS NULL THEN ${now}::timestamptz END,
        ${target.source.via}, ${target.source.keyId}::uuid
      FROM (VALUES ${sql.join(files)}) AS u(storage_key, filename, original_filename, mime_type, size_bytes, sha256, width, height, duration_ms, thumbhash, wants_mp4)
      CROSS JOIN policy
      WHERE ${gate}
      RETURNING *
    )${
      variants.length
        ? sql`, variants AS (
      INSERT INTO file_variants (file_id, variant, storage_key, mime_type, size_bytes, width, height)
      SELECT i.id, v.variant, v.storage_key, v.mime_type, v.size_bytes, v.width, v.height
      FROM (VALUES ${sql.join(variants)}) AS v(file_key, variant, storage_key, mime_type, size_bytes, width, height)
      JOIN inserted i ON i.storage_key = v.file_key
    )`
        : sql``
    }
    SELECT * FROM inserted`.execute(db);
  return rows.length ? rows : null;
}
