import { Trash2 } from "lucide-react";
import { useEffect, useRef } from "react";
import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import type { ActionResult } from "~/lib/action-result";
import { categoryLabel, fileCountText, type CategoryOption } from "~/lib/categories";
import { RETENTION_MAX_DAYS } from "~/lib/server-form";

function RemoveRule({ category }: { category: string }) {
  const fetcher = useFetcher<ActionResult>();
  return (
    <fetcher.Form method="post">
      <input type="hidden" name="intent" value="retention-delete" />
      <input type="hidden" name="category" value={category} />
      <Button type="submit" variant="ghost" size="icon" aria-label={`Remove rule for ${category}`} disabled={fetcher.state !== "idle"}>
        <Trash2 aria-hidden />
      </Button>
    </fetcher.Form>
  );
}

/**
 * Delete files of a category after N days; the retention sweep applies them. A rule matches the
 * stored category exactly, so the picker offers the server's stored categories as they are.
 */
export function RetentionRules({ rules, categories }: { rules: { category: string; days: number }[]; categories: CategoryOption[] }) {
  const fetcher = useFetcher<ActionResult>();
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) formRef.current?.reset();
  }, [fetcher.state, fetcher.data]);
  const errors = fetcher.data && !fetcher.data.ok ? (fetcher.data.errors ?? {}) : {};
  return (
    <Card>
      <CardHeader>
        <CardTitle>Retention Rules</CardTitle>
        <CardDescription>Automatically delete files of a category after a number of days, e.g. security footage after 30 days.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {rules.length === 0 ? (
          <p className="text-sm text-muted-foreground">No retention rules: files are kept as long as your plan allows.</p>
        ) : (
          <ul className="divide-y rounded-md border" aria-label="Retention rules">
            {rules.map((rule) => (
              <li key={rule.category} className="flex items-center justify-between gap-2 px-3 py-2 text-sm">
                <span>
                  <span className="font-mono">{rule.category}</span>
                  <span className="text-muted-foreground"> ({categoryLabel(rule.category)})</span>
                  <span className="text-muted-foreground"> deleted after </span>
                  <span className="font-medium">{rule.days} days</span>
                </span>
                <RemoveRule category={rule.category} />
              </li>
            ))}
          </ul>
        )}
        <fetcher.Form method="post" ref={formRef} className="grid gap-3 sm:grid-cols-[1fr_8rem_auto] sm:items-end">
          <input type="hidden" name="intent" value="retention-save" />
          <div className="grid gap-2">
            <Label htmlFor="retention-category">Category</Label>
            <Input
              id="retention-category"
              name="category"
              list="retention-category-options"
              required
              pattern="[A-Za-z0-9_\-]{1,50}"
              placeholder="security_camera"
              aria-invalid={errors.category ? true : undefined}
            />
            <datalist id="retention-category-options">
              {categories.map((c) => (
                <option key={c.value} value={c.value}>
                  {`${c.label} · ${fileCountText(c)} ${c.files === 1 && !c.capped ? "file" : "files"}`}
                </option>
              ))}
            </datalist>
          </div>
          <div className="grid gap-2">
            <Label htmlFor="retention-days">Days</Label>
            <Input id="retention-days" name="days" type="number" min={1} max={RETENTION_MAX_DAYS} step={1} required defaultValue={30} aria-invalid={errors.days ? true : undefined} />
          </div>
          <Button type="submit" disabled={fetcher.state !== "idle"}>
            Save Rule
          </Button>
          {errors.category || errors.days ? (
            <p className="text-sm text-destructive sm:col-span-3" role="alert">
              {errors.category ?? errors.days}
            </p>
          ) : null}
        </fetcher.Form>
      </CardContent>
    </Card>
  );
}
