import { toast } from "sonner";
import { z } from "zod";

/** The one toast shape (spec: one at a time, bottom-right): flashed across a redirect or returned by an action. */
export const toastSchema = z.object({
  type: z.enum(["success", "error", "info"]).default("info"),
  title: z.string(),
  description: z.string().optional(),
});
export type Toast = z.infer<typeof toastSchema>;

/** Shows one toast now: the one way, for flashes from the server and for answers and checks in the browser. */
export function showToast(t: Toast) {
  const show = t.type === "success" ? toast.success : t.type === "error" ? toast.error : toast;
  show(t.title, { description: t.description });
}
