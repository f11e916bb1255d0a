import { useFetcher } from "react-router";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Label } from "~/components/ui/label";
import { Switch } from "~/components/ui/switch";
import type { ActionResult } from "~/lib/action-result";

/** servers.default_public: what an upload without is_public becomes. */
export function UploadVisibility({ defaultPublic }: { defaultPublic: boolean }) {
  const fetcher = useFetcher<ActionResult>();
  const pending = fetcher.formData?.get("defaultPublic");
  const checked = pending ? pending === "public" : defaultPublic;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Default Visibility</CardTitle>
        <CardDescription>Applies to uploads that do not say whether they are public.</CardDescription>
      </CardHeader>
      <CardContent>
        <fetcher.Form method="post" className="flex items-center justify-between gap-4">
          <input type="hidden" name="intent" value="visibility" />
          <div className="space-y-1">
            <Label htmlFor="default-public">New uploads are public</Label>
            <p className="text-sm text-muted-foreground">
              {checked ? "Anyone with the link can view new files (phone photos show in game)." : "New files need an API key of this server to download."}
            </p>
          </div>
          <Switch
            id="default-public"
            checked={checked}
            onCheckedChange={(value) => fetcher.submit({ intent: "visibility", defaultPublic: value ? "public" : "private" }, { method: "post" })}
          />
          <noscript>
            <input type="hidden" name="defaultPublic" value={defaultPublic ? "private" : "public"} />
            <button type="submit">{defaultPublic ? "Make private" : "Make public"}</button>
          </noscript>
        </fetcher.Form>
      </CardContent>
    </Card>
  );
}
