import { useEffect } from "react";
import { toast } from "sonner";
import type { ActionToast } from "~/lib/action-result";

export function showToast(t: ActionToast) {
  const show = t.type === "success" ? toast.success : t.type === "error" ? toast.error : toast;
  show(t.title, { description: t.description });
}

/** Shows an action's toast once per answer (each answer is a new object). */
export function useActionToast(result: { toast?: ActionToast } | undefined) {
  useEffect(() => {
    if (result?.toast) showToast(result.toast);
  }, [result]);
}
