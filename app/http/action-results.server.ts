import { data } from "react-router";
import type { Toast } from "~/lib/toast";

/** A refused action: a toast with the spec's title and the reason, and errors by field for forms. */
export function actionFail(title: string, description: string, status = 400, errors?: Record<string, string>) {
  const toast: Toast = { type: "error", title, description };
  return data({ ok: false as const, toast, errors }, { status });
}

export function actionOk<T extends object>(toast?: Toast, extra?: T) {
  return data({ ok: true as const, toast, ...(extra as T) });
}
