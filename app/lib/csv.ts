/**
 * One CSV cell (RFC 4180), as the audit and log exports write them: quoted when it holds a comma, a
 * quote or a line break; null and undefined empty; other values as JSON. A cell that a spreadsheet
 * would run as a formula (a leading =, +, -, @, tab or carriage return) gets a leading ' (OWASP).
 */
export function csvCell(value: unknown): string {
  const text = value === null || value === undefined ? "" : typeof value === "string" ? value : JSON.stringify(value);
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}
