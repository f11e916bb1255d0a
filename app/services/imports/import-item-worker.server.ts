import path from "node:path";
import { sql } from "kysely";
import type { Selectable } from "kysely";
import type { ImportItemsTable, ImportsTable } from "../../../db/schema";
import type { AppContext } from "~/services/app-context.server";
import { DomainError } from "~/services/platform/domain-error.server";
import type { FileId } from "~/lib/ids";
import type { UploadTarget } from "~/services/uploads/store-upload.server";
import { storeImportedFile } from "~/services/imports/import-upload.server";
import { spoolBytes, SourceTooLargeError, type SpooledBytes } from "~/services/imports/spooled-bytes.server";
import { isDiscordCdnHost, parseDiscordAttachmentUrl, snowflakeTime } from "~/services/imports/discord-urls.server";
import { knownSourceHost } from "~/services/imports/url-list.server";
import { fivemanageHost } from "~/services/imports/fivemanage-files.server";
import { discordBot, RefreshUnavailableError, REFRESH_BATCH, type DiscordBot } from "~/services/imports/discord-bot.server";
import type { ImportArchive } from "~/services/imports/import-archive.server";
import type { FailureCause } from "~/services/imports/import-items.server";

export type ImportRow = Selectable<ImportsTable>;
export type ItemRow = Pick<Selectable<ImportItemsTable>, "seq" | "ref" | "filename" | "channel_id" | "attachment_id" | "message_id" | "author" | "posted_at">;

export type Outcome =
  | { state: "stored" | "duplicate"; fileId: FileId; sizeBytes: number }
  | { state: "failed"; cause: FailureCause; detail: string };

export interface ImportOptions {
  category: string;
  is_public?: boolean;
  hosts?: string[];
  host?: string;
  channel_ids?: string[];
  log_entries_pending?: number;
}

/** Errors that say "not now" rather than "not this file": the job stops and resumes later. */
const TRANSIENT = new Set(["database_unavailable", "storage_unavailable", "insufficient_storage", "scanner_unavailable", "rate_limited", "discord_unavailable", "source_unavailable"]);

export function isTransient(error: unknown): boolean {
  return error instanceof DomainError && TRANSIENT.has(error.code);
}

const failed = (cause: FailureCause, detail: string): Outcome => ({ state: "failed", cause, detail });

/** What the pipeline's refusal of a file means for the report. */
function refusalCause(error: DomainError): FailureCause {
  switch (error.code) {
    case "file_too_large":
    case "image_too_large":
    case "too_many_frames":
      return "too_large";
    case "unsupported_file_type":
      return "type_not_allowed";
    case "quota_exceeded":
      return "quota";
    default:
      return "rejected";
  }
}

/**
 * Brings one import's files in, one item at a time (several at once): a Discord attachment the team
 * already has is linked, not fetched; the bytes are fetched only from the hosts the import's source names
 * (ctx.outbound, every redirect checked), hashed, and stored through the upload pipeline unless the
 * team already holds the same bytes. Discord links are refreshed first, 50 per call, when the owner lent
 * a bot token.
 */
export class ImportItemWorker {
  private readonly refreshed = new Map<number, string>();
  private readonly gone = new Set<number>();
  private refreshUnavailable = false;
  private canReadMessages: boolean | null = null;
  private quotaFull = false;
  readonly notes = new Set<string>();
  readonly bot: DiscordBot | null;
  private readonly options: ImportOptions;
  private readonly allowHost: (url: URL) => boolean;
  private readonly tmpDir: string;

  constructor(
    private readonly ctx: AppContext,
    private readonly job: ImportRow,
    private readonly target: UploadTarget,
    private readonly archive: ImportArchive | null,
    private readonly signal: AbortSignal,
  ) {
    this.options = job.options as unknown as ImportOptions;
    this.bot = job.secret && job.source !== "fivemanage" ? discordBot(ctx, job.secret, signal) : null;
    this.allowHost = this.hostRule();
    this.tmpDir = path.join(ctx.config.dataDir, "imports-tmp");
  }

  private hostRule(): (url: URL) => boolean {
    const { source } = this.job;
    if (source === "fivemanage") return fivemanageHost(this.ctx);
    if (source === "zipline") return (url) => url.hostname.toLowerCase() === this.options.host;
    const hosts = this.options.hosts ?? [];
    if (source === "urls") return (url) => knownSourceHost(url.hostname) || hosts.includes(url.hostname.toLowerCase());
    return (url) => isDiscordCdnHost(url.hostname);
  }

  /** Fresh links for a batch's Discord items, 50 per refresh call; without a bot, nothing to do. */
  async prepare(items: ItemRow[]): Promise<void> {
    if (!this.bot || this.refreshUnavailable) return;
    const discord = items.filter((item) => !item.ref.startsWith("archive:") && parseDiscordAttachmentUrl(item.ref));
    for (let start = 0; start < discord.length; start += REFRESH_BATCH) {
      const batch = discord.slice(start, start + REFRESH_BATCH);
      let answer: Map<string, string>;
      try {
        answer = await this.bot.refreshUrls(batch.map((item) => item.ref));
      } catch (error) {
        if (!(error instanceof RefreshUnavailableError)) throw error;
        this.refreshUnavailable = true;
        this.notes.add(`${error.message}; it is not part of Discord's documented API and may have changed. Links were read from their messages instead where the export names them, else fetched as they were.`);
        return;
      }
      for (const item of batch) {
        const fresh = answer.get(item.ref);
        if (fresh) this.refreshed.set(item.seq, fresh);
        else this.gone.add(item.seq);
      }
    }
  }

  /** A fresh link read from the attachment's message: the fallback when refresh-urls does not answer. */
  private async linkFromMessage(item: ItemRow): Promise<string | null> {
    if (!this.bot || !item.channel_id || !item.message_id) return null;
    if (this.canReadMessages === null) {
      try {
        await this.bot.assertCanReadMessages();
        this.canReadMessages = true;
      } catch (error) {
        if (!(error instanceof DomainError) || error.code !== "discord_intent_missing") throw error;
        this.canReadMessages = false;
        this.notes.add(error.message);
      }
    }
    if (!this.canReadMessages) return null;
    const message = await this.bot.message(item.channel_id, item.message_id);
    return message?.attachments?.find((a) => a.id === item.attachment_id)?.url ?? null;
  }

  /** Where a Discord CDN link is fetched from: DISCORD_CDN_BASE stands in for Discord's hosts when set. */
  private fetchUrl(link: string): string {
    const base = this.ctx.config.DISCORD_CDN_BASE;
    if (!base) return link;
    const url = new URL(link);
    if (!isDiscordCdnHost(url.hostname)) return link;
    const mirror = new URL(base);
    url.protocol = mirror.protocol;
    url.host = mirror.host;
    return url.toString();
  }

  private async openRemote(item: ItemRow): Promise<{ body: AsyncIterable<Uint8Array> } | Outcome> {
    const discord = parseDiscordAttachmentUrl(item.ref);
    if (this.gone.has(item.seq)) return failed("deleted_on_discord", "Discord gave no fresh link for it: the attachment or its message was deleted");
    let link = this.refreshed.get(item.seq) ?? null;
    if (!link && discord && this.refreshUnavailable) link = await this.linkFromMessage(item);
    const refreshed = link !== null;
    link ??= item.ref;
    let response;
    try {
      response = await this.ctx.outbound.fetch(this.fetchUrl(link), { allowHost: this.allowHost, signal: this.signal, timeoutMs: 120_000 });
    } catch (error) {
      if (this.signal.aborted) throw error;
      if (error instanceof DomainError && error.code === "url_not_allowed") return failed("host_not_allowed", error.message);
      return failed("fetch_failed", (error as Error).message);
    }
    if (!response.ok) {
      await response.body?.cancel();
      if (discord && [403, 404, 410].includes(response.status)) {
        if (refreshed) return failed("not_found_after_refresh", `Discord answered HTTP ${response.status} to the refreshed link`);
        if (discord.expiresAt && discord.expiresAt.getTime() < Date.now()) return failed("link_expired", `The link expired on ${discord.expiresAt.toISOString()}; give a bot token to refresh it`);
        return failed("deleted_on_discord", `Discord answered HTTP ${response.status}`);
      }
      if (response.status === 404 || response.status === 410) return failed("not_found", `HTTP ${response.status}`);
      return failed("fetch_failed", `HTTP ${response.status}`);
    }
    const declared = Number(response.headers.get("content-length"));
    if (Number.isFinite(declared) && declared > this.target.maxBytes) {
      await response.body?.cancel();
      return failed("too_large", `${declared} bytes, more than the ${this.target.maxBytes}-byte cap`);
    }
    if (!response.body) return failed("fetch_failed", "empty answer");
    return { body: response.body };
  }

  private async open(item: ItemRow): Promise<{ body: AsyncIterable<Uint8Array> } | Outcome> {
    if (!item.ref.startsWith("archive:")) return this.openRemote(item);
    const name = item.ref.slice("archive:".length);
    if (!this.archive?.has(name)) return failed("media_missing", `${name} is not in the uploaded archive`);
    return { body: await this.archive.openStream(name) };
  }

  /** A file of the team with these bytes: stored as they are, or (metadata stripped) imported from them. */
  private async teamFileWithBytes(sha256: string): Promise<{ id: FileId; import_id: string | null } | undefined> {
    return this.ctx.db
      .selectFrom("files")
      .select(["id", sql<string | null>`metadata->>'import_id'`.as("import_id")])
      .where("team_id", "=", this.job.team_id)
      .where((eb) => eb.or([eb("sha256", "=", sha256), eb(sql`metadata`, "@>", JSON.stringify({ source_sha256: sha256 }))]))
      .orderBy("created_at")
      .limit(1)
      .executeTakeFirst();
  }

  private async rememberAttachment(item: ItemRow, fileId: FileId): Promise<void> {
    if (!item.channel_id || !item.attachment_id) return;
    await this.ctx.db
      .insertInto("discord_attachments")
      .values({
        team_id: this.job.team_id,
        channel_id: item.channel_id,
        attachment_id: item.attachment_id,
        file_id: fileId,
        filename: item.filename ?? parseDiscordAttachmentUrl(item.ref)?.filename ?? "file",
        posted_at: snowflakeTime(item.attachment_id),
      })
      .onConflict((oc) => oc.columns(["team_id", "channel_id", "attachment_id"]).doNothing())
      .execute();
  }

  private metadata(item: ItemRow, sha256: string): Record<string, unknown> {
    const entries = {
      source: this.job.source,
      original_url: item.ref.startsWith("archive:") ? undefined : item.ref,
      channel_id: item.channel_id,
      message_id: item.message_id,
      attachment_id: item.attachment_id,
      author: item.author,
      posted_at: item.posted_at ? new Date(item.posted_at).toISOString() : undefined,
      import_id: this.job.id,
      source_sha256: sha256,
    };
    return Object.fromEntries(Object.entries(entries).filter(([, value]) => value !== null && value !== undefined));
  }

  async process(item: ItemRow): Promise<Outcome> {
    if (item.channel_id && item.attachment_id) {
      const known = await this.ctx.db
        .selectFrom("discord_attachments as d")
        .innerJoin("files as f", "f.id", "d.file_id")
        .select(["d.file_id", "f.size_bytes", sql<string | null>`f.metadata->>'import_id'`.as("import_id")])
        .where("d.team_id", "=", this.job.team_id)
        .where("d.channel_id", "=", item.channel_id)
        .where("d.attachment_id", "=", item.attachment_id)
        .executeTakeFirst();
      if (known) return { state: known.import_id === this.job.id ? "stored" : "duplicate", fileId: known.file_id, sizeBytes: Number(known.size_bytes) };
    }
    if (this.quotaFull) return failed("quota", "The team's storage was full");
    const opened = await this.open(item);
    if ("state" in opened) return opened;
    let spooled: SpooledBytes;
    try {
      spooled = await spoolBytes(opened.body, this.target.maxBytes, this.tmpDir);
    } catch (error) {
      if (error instanceof SourceTooLargeError) return failed("too_large", `More than the ${this.target.maxBytes}-byte cap`);
      if (this.signal.aborted || error instanceof DomainError) throw error;
      return failed(item.ref.startsWith("archive:") ? "media_missing" : "fetch_failed", (error as Error).message);
    }
    try {
      const existing = await this.teamFileWithBytes(spooled.sha256);
      if (existing) {
        await this.rememberAttachment(item, existing.id);
        return { state: existing.import_id === this.job.id ? "stored" : "duplicate", fileId: existing.id, sizeBytes: spooled.size };
      }
      const file = await storeImportedFile(
        this.ctx,
        this.target,
        spooled.body(),
        { category: this.options.category, isPublic: this.options.is_public ?? this.target.defaultPublic, filename: item.filename, metadata: this.metadata(item, spooled.sha256) },
        spooled.size,
      );
      await this.rememberAttachment(item, file.id);
      return { state: "stored", fileId: file.id, sizeBytes: file.size_bytes };
    } catch (error) {
      if (!(error instanceof DomainError) || isTransient(error)) throw error;
      const cause = refusalCause(error);
      if (cause === "quota") this.quotaFull = true;
      return failed(cause, error.message);
    } finally {
      await spooled.dispose();
    }
  }
}
