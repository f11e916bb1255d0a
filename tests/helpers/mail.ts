import fs from "node:fs";
import path from "node:path";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  to: string;
  subject: string;
  /** The message with quoted-printable soft breaks and escapes undone. */
  body: string;
  raw: string;
}

function decodeQuotedPrintable(value: string): string {
  return value.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

export function parseMail(raw: string): ReceivedMail {
  const header = (name: string) => new RegExp(`^${name}: (.*)$`, "im").exec(raw)?.[1]?.trim() ?? "";
  return { to: header("To"), subject: header("Subject"), body: decodeQuotedPrintable(raw), raw };
}

/** The first link in a mail whose path starts with `pathname`. */
export function linkIn(mail: ReceivedMail, pathname: string): string {
  const match = new RegExp(`https?://[^\\s"<>]+${pathname.replace(/[/]/g, "\\/")}\\?token=[0-9A-Za-z%]+`).exec(mail.body);
  if (!match) throw new Error(`no ${pathname} link in mail:\n${mail.body}`);
  return match[0];
}

export function readOutbox(dataDir: string): ReceivedMail[] {
  const dir = path.join(dataDir, "outbox");
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith(".eml"))
    .sort()
    .map((name) => parseMail(fs.readFileSync(path.join(dir, name), "utf8")));
}

async function waitFor<T>(find: () => T | undefined, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Waits for the newest outbox mail to `to` (optionally with a subject containing `subject`). */
export function waitForOutboxMail(dataDir: string, to: string, subject = ""): Promise<ReceivedMail> {
  return waitFor(
    () => readOutbox(dataDir).filter((m) => m.to.includes(to) && m.subject.includes(subject)).at(-1),
    `a mail to ${to}`,
  );
}

export interface LocalSmtp {
  url: string;
  messages: ReceivedMail[];
  waitForMail(to: string, subject?: string): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/** A real SMTP listener (smtp-server) that keeps every message it accepts. */
export async function startLocalSmtp(): Promise<LocalSmtp> {
  const messages: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        messages.push(parseMail(Buffer.concat(chunks).toString("utf8")));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    waitForMail: (to, subject = "") =>
      waitFor(() => messages.filter((m) => m.to.includes(to) && m.subject.includes(subject)).at(-1), `an SMTP mail to ${to}`),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
