/** What portal actions answer: a toast to show (spec titles) and, for forms, errors by field. */
export interface ActionToast {
  type: "success" | "error" | "info";
  title: string;
  description?: string;
}

export interface ActionResult {
  ok: boolean;
  toast?: ActionToast;
  errors?: Record<string, string>;
}
