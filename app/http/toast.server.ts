import { createCookie } from "react-router";
import { toastSchema, type Toast } from "~/lib/toast";

const toastCookie = createCookie("stash_toast", { path: "/", httpOnly: true, sameSite: "lax", maxAge: 60 });

export async function createToastHeaders(toast: Toast): Promise<Headers> {
  return new Headers({ "Set-Cookie": await toastCookie.serialize(toast) });
}

/** Reads the pending toast, and the header that clears it once shown. */
export async function readToast(request: Request): Promise<{ toast: Toast | null; headers: Headers }> {
  const raw = await toastCookie.parse(request.headers.get("Cookie"));
  const parsed = toastSchema.safeParse(raw);
  const headers = new Headers();
  if (raw !== null && raw !== undefined) headers.append("Set-Cookie", await toastCookie.serialize("", { maxAge: 0 }));
  return { toast: parsed.success ? parsed.data : null, headers };
}
