/** Why a visitor reports a file; shared by the public form, the API and the admin queue. */
export const REPORT_REASONS = {
  illegal: "Illegal content",
  personal_data: "Personal data or harassment",
  copyright: "Copyright infringement",
  malware: "Malware or phishing",
  other: "Something else",
} as const;

export type ReportReason = keyof typeof REPORT_REASONS;

export function isReportReason(value: unknown): value is ReportReason {
  return typeof value === "string" && Object.hasOwn(REPORT_REASONS, value);
}

export const REPORT_DETAILS_MAX = 2000;
