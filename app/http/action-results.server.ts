import { data } from "react-router";
import type { ActionResult } from "~/lib/action-result";
import type { Toast } from "~/lib/toast";
import { createToastHeaders } from "~/http/toast.server";

// Each helper answers the one ActionResult shape (docs/decisions/071) plus the action's own fields.

/** A refused action: an error toast with the spec's title and the reason, the reason as `error`, and messages by field for forms. */
export async function actionFail<T extends object = object>(title: string, description: string | undefined, status = 400, errors?: Record<string, string>, extra?: T) {
  const result = { ...(extra as T), ok: false as const, error: description ?? title, errors } satisfies ActionResult;
  return data(result, { status, headers: await createToastHeaders({ type: "error", title, description }) });
}

/** A done action: its toast, if any, and the action's own fields. */
export async function actionOk<T extends object = object>(toast?: Toast, extra?: T) {
  const result = { ...(extra as T), ok: true as const } satisfies ActionResult;
  return data(result, toast ? { headers: await createToastHeaders(toast) } : undefined);
}

/** A refusal shown inside the form only (the sign-in and account pages), with the fields to keep. */
export function formError<T extends object = object>(error: string, status: number, extra?: T, headers?: Record<string, string>) {
  const result = { ...(extra as T), ok: false as const, error } satisfies ActionResult;
  return data(result, { status, headers });
}
