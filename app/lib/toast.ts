import { z } from "zod";

/** The one toast shape (spec: one at a time, bottom-right): flashed across a redirect or returned by an action. */
export const toastSchema = z.object({
  type: z.enum(["success", "error", "info"]).default("info"),
  title: z.string(),
  description: z.string().optional(),
});
export type Toast = z.infer<typeof toastSchema>;
