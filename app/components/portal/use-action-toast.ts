import { useEffect } from "react";
import { showToast } from "~/lib/toast";
import type { Toast } from "~/lib/toast";

/** Shows an action's toast once per answer (each answer is a new object). */
export function useActionToast(result: { toast?: Toast } | undefined) {
  useEffect(() => {
    if (result?.toast) showToast(result.toast);
  }, [result]);
}
