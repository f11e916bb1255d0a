import { createCookie, redirect } from "react-router";
import { toastSchema, type Toast } from "~/lib/toast";

/** The one way a toast reaches the browser (docs/decisions/071): a flash cookie the root loader reads once. */
const toastCookie = createCookie("stash_toast", { path: "/", httpOnly: true, sameSite: "lax", maxAge: 60 });

export async function createToastHeaders(toast: Toast): Promise<Headers> {
  return new Headers({ "Set-Cookie": await toastCookie.serialize(toast) });
}

/** A redirect that shows `toast` on the page it lands on; `headers` adds more (a cleared session cookie, say). */
export async function redirectWithToast(url: string, toast: Toast, headers?: Headers) {
  const all = await createToastHeaders(toast);
  headers?.forEach((value, name) => all.append(name, value));
  return redirect(url, { headers: all });
}

/** Reads the pending toast, and the header that clears it once shown. */
export async function readToast(request: Request): Promise<{ toast: Toast | null; headers: Headers }> {
  const raw = await toastCookie.parse(request.headers.get("Cookie"));
  const parsed = toastSchema.safeParse(raw);
  const headers = new Headers();
  if (raw !== null && raw !== undefined) headers.append("Set-Cookie", await toastCookie.serialize("", { maxAge: 0 }));
  return { toast: parsed.success ? parsed.data : null, headers };
}
