import type { Toast } from "~/lib/toast";

/** What portal actions answer: a toast to show (spec titles) and, for forms, errors by field. */
export interface ActionResult {
  ok: boolean;
  toast?: Toast;
  errors?: Record<string, string>;
}
