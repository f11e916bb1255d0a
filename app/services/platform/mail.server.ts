import fs from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";
import type { Config } from "~/services/platform/env.server";
import { randomString } from "~/services/platform/ids.server";
import type { Logger } from "~/services/platform/logger.server";

export interface MailContext {
  config: Pick<Config, "SMTP_URL" | "MAIL_FROM" | "dataDir">;
  logger: Logger;
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /**
   * The one link the mail exists for. Without SMTP it is logged next to the outbox file so an
   * operator running locally can follow it.
   */
  link?: string;
}

export interface SentMail {
  /** Where the .eml was written when no SMTP relay is configured. */
  file?: string;
  messageId: string;
}

export function outboxDir(config: Pick<Config, "dataDir">): string {
  return path.join(config.dataDir, "outbox");
}

/** SMTP when SMTP_URL is set, else an .eml file in DATA_DIR/outbox plus a log line. */
export async function sendMail(ctx: MailContext, message: MailMessage): Promise<SentMail> {
  const envelope = { from: ctx.config.MAIL_FROM, to: message.to, subject: message.subject, text: message.text, html: message.html };
  if (ctx.config.SMTP_URL) {
    const transport = nodemailer.createTransport(ctx.config.SMTP_URL);
    try {
      const info = await transport.sendMail(envelope);
      ctx.logger.info({ to: message.to, subject: message.subject, messageId: info.messageId }, "mail sent");
      return { messageId: info.messageId };
    } finally {
      transport.close();
    }
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  const info = await transport.sendMail(envelope);
  const dir = outboxDir(ctx.config);
  await fs.mkdir(dir, { recursive: true });
  const file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, "-")}-${randomString(6)}.eml`);
  await fs.writeFile(`${file}.part`, info.message as Buffer);
  await fs.rename(`${file}.part`, file);
  ctx.logger.info({ to: message.to, subject: message.subject, file, link: message.link }, "mail written to outbox (no SMTP_URL)");
  return { file, messageId: info.messageId };
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}
