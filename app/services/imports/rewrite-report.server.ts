import { csvCell } from "~/lib/csv";
import { DISCORD_CDN_HOSTS } from "~/services/imports/discord-urls.server";

/**
 * What fixes a game database once its Discord files are in Stash (docs/decisions/111): every rescued
 * attachment is served at `{cdn base}/dc/attachments/{channel}/{attachment}/{filename}`, so replacing
 * Discord's host with `{cdn base}/dc/` (and dropping the dead `?ex=…&is=…&hm=…`) repairs a whole table
 * in one statement per host. The column must hold the longer URL: LB Phone's is VARCHAR(200).
 */

export interface PhoneTable {
  id: string;
  label: string;
  table: string;
  column: string;
  /** The column's VARCHAR length. */
  maxLength: number;
}

/** The phone scripts' gallery tables as their SQL files create them. */
export const PHONE_TABLES: readonly PhoneTable[] = [
  { id: "lb-phone", label: "LB Phone", table: "phone_photos", column: "link", maxLength: 200 },
  { id: "qb-phone", label: "qb-phone", table: "phone_gallery", column: "image", maxLength: 255 },
  { id: "npwd", label: "NPWD", table: "npwd_phone_gallery", column: "image", maxLength: 255 },
];

const mysqlString = (value: string) => `'${value.replace(/\\/g, "\\\\").replace(/'/g, "''")}'`;
const mysqlName = (value: string) => `\`${value.replace(/`/g, "``")}\``;

/** The Discord URL as the rewrite leaves it: the host swapped for `{cdn base}/dc/`, the query dropped. */
export function rewriteDiscordUrl(url: string, cdnBase: string): string | null {
  const bare = url.split("?")[0]!;
  for (const host of DISCORD_CDN_HOSTS) {
    const prefix = `https://${host}/`;
    if (bare.toLowerCase().startsWith(`${prefix}attachments/`)) return `${cdnBase}/dc/${bare.slice(prefix.length)}`;
  }
  return null;
}

/**
 * The MySQL/MariaDB statements that rewrite one table: one UPDATE per Discord host, each changing only
 * Discord attachment links whose rewritten form fits the column (a longer one is left as it was and
 * shows in the report's length check). `IGNORE`: LB Phone's link is part of its primary key, so a phone
 * holding one attachment under both Discord hosts keeps the second row as it was rather than failing.
 */
export function rewriteStatements(table: PhoneTable, cdnBase: string): string {
  const column = mysqlName(table.column);
  const lines = [`-- ${table.label}: ${table.table}.${table.column} (VARCHAR(${table.maxLength}))`];
  for (const host of DISCORD_CDN_HOSTS) {
    const from = mysqlString(`https://${host}/`);
    const rewritten = `REPLACE(SUBSTRING_INDEX(${column}, '?', 1), ${from}, ${mysqlString(`${cdnBase}/dc/`)})`;
    lines.push(
      `UPDATE IGNORE ${mysqlName(table.table)} SET ${column} = ${rewritten}\n  WHERE ${column} LIKE ${mysqlString(`https://${host}/attachments/%`)} AND CHAR_LENGTH(${rewritten}) <= ${table.maxLength};`,
    );
  }
  return lines.join("\n");
}

export interface LengthCheck {
  table: PhoneTable;
  /** Rescued links whose rewritten form is longer than the column. */
  tooLong: number;
  longest: number;
}

/** How the rewritten forms of `urls` (the links as the game stored them) fit each table's column. */
export function lengthChecks(urls: Iterable<string>, cdnBase: string): LengthCheck[] {
  const lengths: number[] = [];
  for (const url of urls) {
    const rewritten = rewriteDiscordUrl(url, cdnBase);
    if (rewritten) lengths.push([...rewritten].length);
  }
  return PHONE_TABLES.map((table) => ({
    table,
    tooLong: lengths.filter((length) => length > table.maxLength).length,
    longest: lengths.reduce((max, length) => Math.max(max, length), 0),
  }));
}

export interface UrlMapping {
  old: string;
  new: string;
}

export function urlMapCsv(rows: Iterable<UrlMapping>): string {
  const lines = ["old_url,new_url"];
  for (const row of rows) lines.push(`${csvCell(row.old)},${csvCell(row.new)}`);
  return `${lines.join("\r\n")}\r\n`;
}
