/**
 * What every form action answers (docs/decisions/071): `ok`, the form-level message `error`, the
 * messages by field `errors`, and the action's own fields beside them. A toast never rides here: it
 * travels in the flash cookie (app/http/toast.server.ts).
 */
export interface ActionResult {
  ok: boolean;
  error?: string;
  errors?: Record<string, string>;
}
