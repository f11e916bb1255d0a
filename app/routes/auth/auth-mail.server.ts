import type { AppLoadContext } from "react-router";
import { sendAccountMail, type AccountMailKind } from "~/services/accounts/account-mail.server";

/**
 * Sends without holding up the answer, so a known and an unknown address take the same time
 * to answer; a failure is logged (the user can ask again).
 */
export function sendAccountMailInBackground(context: AppLoadContext, kind: AccountMailKind, to: string, token: string): void {
  sendAccountMail(context, kind, to, token).catch((error: unknown) => {
    context.logger.error({ err: error, kind }, "account mail could not be sent");
  });
}
