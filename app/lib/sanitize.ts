import { z } from "zod";

/**
 * Strips what could turn typed text into markup or script: whole script blocks, any tag,
 * `javascript:` and inline `on…=` handlers. Runs on every keystroke in the browser and again
 * on the server. `trim` is off while typing so a space between two words can be entered.
 */
export function sanitizeInput(value: string, options: { trim?: boolean } = {}): string {
  let out = value;
  let previous: string;
  // Repeat until stable so pieces that join up after a removal ("<scr<script>ipt>") go too.
  do {
    previous = out;
    out = out
      .replace(/<script\b[^>]*>[\s\S]*?<\/script\s*>/gi, "")
      .replace(/<\/?[a-zA-Z!/?][^>]*>/g, "")
      .replace(/javascript\s*:/gi, "")
      .replace(/\bon[a-z]+\s*=/gi, "");
  } while (out !== previous);
  return options.trim === false ? out : out.trim();
}

/** A text value cleaned as above; anything else passes through for the schema to refuse. */
export function cleanText(value: unknown): unknown {
  return typeof value === "string" ? sanitizeInput(value) : value;
}

/** `schema` run on the cleaned text: the one way a zod schema takes typed text, in the browser and on the server. */
export function cleaned<T extends z.ZodType>(schema: T) {
  return z.preprocess(cleanText, schema);
}
