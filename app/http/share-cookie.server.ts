/** The proof a browser keeps after entering a share's password: scoped to that share's path, never readable by scripts. */
const NAME = "stash_share";

export function readShareUnlock(request: Request): string | undefined {
  const cookie = request.headers.get("Cookie") ?? "";
  return /(?:^|;\s*)stash_share=([0-9a-f]{64})/.exec(cookie)?.[1];
}

export function shareUnlockCookie(token: string, value: string, secure: boolean): string {
  return [`${NAME}=${value}`, `Path=/s/${token}`, "HttpOnly", "SameSite=Lax", "Max-Age=86400", ...(secure ? ["Secure"] : [])].join("; ");
}
