import { useEffect } from "react";
import { toast } from "sonner";
import type { Toast } from "~/lib/toast";

export function showToast(t: Toast) {
  const show = t.type === "success" ? toast.success : t.type === "error" ? toast.error : toast;
  show(t.title, { description: t.description });
}

/** Shows an action's toast once per answer (each answer is a new object). */
export function useActionToast(result: { toast?: Toast } | undefined) {
  useEffect(() => {
    if (result?.toast) showToast(result.toast);
  }, [result]);
}
