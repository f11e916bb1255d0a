import type { Config } from "~/services/platform/env.server";
import { escapeHtml, sendMail, type MailContext, type SentMail } from "~/services/platform/mail.server";

export type AccountMailKind = "confirm" | "reset" | "change";

type AccountMailContext = MailContext & { config: MailContext["config"] & Pick<Config, "appUrl" | "APP_NAME"> };

function compose(kind: AccountMailKind, appName: string, link: string) {
  if (kind === "confirm") {
    return {
      subject: `Confirm your ${appName} account`,
      intro: `Welcome to ${appName}! Confirm your email address to finish creating your account.`,
      action: "Confirm email address",
      outro: "The link works once and expires in 24 hours. If you did not sign up, ignore this email.",
      link,
    };
  }
  if (kind === "change") {
    return {
      subject: `Confirm your new ${appName} email address`,
      intro: `You asked to use this address for your ${appName} account.`,
      action: "Confirm new email address",
      outro: "The link works once and expires in 24 hours. Until you follow it, the account keeps its old address. If you did not ask for this, ignore this email.",
      link,
    };
  }
  return {
    subject: `Reset your ${appName} password`,
    intro: `Someone asked to reset the password of your ${appName} account.`,
    action: "Choose a new password",
    outro: "The link works once and expires in 1 hour. Setting a new password signs you out everywhere else. If you did not ask for this, ignore this email.",
    link,
  };
}

export function accountLink(config: Pick<Config, "appUrl">, kind: AccountMailKind, token: string): string {
  const pathname = { confirm: "/auth/confirm", reset: "/auth/reset-password", change: "/auth/confirm-email-change" }[kind];
  return `${config.appUrl}${pathname}?token=${encodeURIComponent(token)}`;
}

export function sendAccountMail(ctx: AccountMailContext, kind: AccountMailKind, to: string, token: string): Promise<SentMail> {
  const link = accountLink(ctx.config, kind, token);
  const mail = compose(kind, ctx.config.APP_NAME, link);
  const text = `${mail.intro}\n\n${mail.action}: ${link}\n\n${mail.outro}\n`;
  const html = `<p>${escapeHtml(mail.intro)}</p><p><a href="${escapeHtml(link)}">${escapeHtml(mail.action)}</a></p><p>${escapeHtml(mail.outro)}</p>`;
  return sendMail(ctx, { to, subject: mail.subject, text, html, link });
}
