import { Flag } from "lucide-react";
import { data, Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Textarea } from "~/components/ui/textarea";
import type { ActionResult } from "~/lib/action-result";
import { REPORT_DETAILS_MAX, REPORT_REASONS } from "~/lib/report-reasons";
import { seoMeta } from "~/lib/seo";
import { ERROR_STATUS } from "~/http/api-response.server";
import { createFileReport } from "~/services/files/file-reports.server";
import { consumeReportBudget } from "~/services/files/report-limits.server";
import { isDomainError } from "~/services/platform/domain-error.server";
import type { Route } from "./+types/report";

export async function loader({ request, context }: Route.LoaderArgs) {
  return { appName: context.config.APP_NAME, appUrl: context.config.appUrl, url: new URL(request.url).searchParams.get("url") ?? "" };
}

type ReportResult = ActionResult & { sent?: boolean; field?: string };

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  try {
    await consumeReportBudget(context.rateLimits, context.clientIp);
    await createFileReport(context.db, { url: form.get("url"), reason: form.get("reason"), details: form.get("details"), contact: form.get("contact"), ip: context.clientIp });
  } catch (error) {
    if (!isDomainError(error, "invalid_request", "not_found", "rate_limited")) throw error;
    const field = typeof error.details.field === "string" ? error.details.field : error.code === "not_found" ? "url" : undefined;
    return data({ ok: false, error: error.message, field } satisfies ReportResult, { status: ERROR_STATUS[error.code] });
  }
  return { ok: true, sent: true } satisfies ReportResult;
}

export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData) return [];
  const { appName, appUrl } = loaderData;
  return seoMeta({ title: "Report a file", description: `Report a file hosted on ${appName} that breaks the law or our terms.`, keywords: [], path: "/report", appName, appUrl });
}

export default function Report({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  const result = actionData as ReportResult | undefined;
  const fieldError = (name: string) => (result && !result.ok && result.field === name ? (result.error ?? null) : null);
  const otherError = result && !result.ok && !result.field ? result.error : null;
  return (
    <section className="mx-auto max-w-2xl px-4 py-16 sm:px-6" aria-labelledby="report-title">
      <h1 id="report-title" className="flex items-center gap-3 text-4xl font-black tracking-tight">
        <Flag className="size-8" aria-hidden />
        Report a file
      </h1>
      <p className="mt-4 text-muted-foreground">
        {`Files on ${loaderData.appName} are uploaded by game servers. If one is illegal, exposes someone's personal data, infringes your rights or spreads malware, tell us: an administrator reviews every report and can take the file down at once. You do not need an account.`}
      </p>
      {result?.ok ? (
        <p role="status" className="mt-8 rounded-md border bg-muted/50 p-4">
          Thank you. An administrator will review this file. If you left an email address, we may contact you about it.
        </p>
      ) : (
        <Form method="post" className="mt-8 space-y-5" noValidate>
          <Field label="Address of the file" name="url" error={fieldError("url")}>
            <Input id="report-url" name="url" type="url" required defaultValue={loaderData.url} placeholder="https://…/f/…" aria-invalid={fieldError("url") ? true : undefined} aria-describedby={fieldError("url") ? "report-url-error" : undefined} />
          </Field>
          <Field label="Reason" name="reason" error={fieldError("reason")}>
            <select id="report-reason" name="reason" required defaultValue="" className="flex h-10 w-full rounded-md border border-input bg-background px-3 py-2 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring" aria-invalid={fieldError("reason") ? true : undefined} aria-describedby={fieldError("reason") ? "report-reason-error" : undefined}>
              <option value="" disabled>
                Choose a reason
              </option>
              {Object.entries(REPORT_REASONS).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Details (optional)" name="details" error={fieldError("details")}>
            <Textarea id="report-details" name="details" rows={4} maxLength={REPORT_DETAILS_MAX} aria-invalid={fieldError("details") ? true : undefined} />
          </Field>
          <Field label="Your email (optional)" name="contact" error={fieldError("contact")}>
            <Input id="report-contact" name="contact" type="email" autoComplete="email" aria-invalid={fieldError("contact") ? true : undefined} aria-describedby={fieldError("contact") ? "report-contact-error" : undefined} />
          </Field>
          {otherError ? (
            <p role="alert" className="rounded-md border border-destructive/50 bg-destructive/10 p-3 text-sm text-destructive">
              {otherError}
            </p>
          ) : null}
          <Button type="submit" disabled={busy}>
            {busy ? "Sending..." : "Send report"}
          </Button>
        </Form>
      )}
    </section>
  );
}

function Field({ label, name, error, children }: { label: string; name: string; error: string | null; children: React.ReactNode }) {
  return (
    <div className="space-y-2">
      <Label htmlFor={`report-${name}`}>{label}</Label>
      {children}
      {error ? (
        <p id={`report-${name}-error`} role="alert" className="text-sm text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}
