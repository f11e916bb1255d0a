const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A real calendar day written YYYY-MM-DD. JavaScript rolls 2026-02-30 over to 2 March (and so does
 * every date-time on that day), while PostgreSQL refuses it: either way the caller meant no such day.
 */
export function isCalendarDay(value: string): boolean {
  if (!DAY.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/** False for text that starts with a date (`2026-02-30T10:00`) on a day that does not exist. */
export function startsOnCalendarDay(value: string): boolean {
  return !/^\d{4}-\d{2}-\d{2}/.test(value) || isCalendarDay(value.slice(0, 10));
}
