import { Lock } from "lucide-react";
import { data, Form, redirect } from "react-router";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { formatBytes } from "~/lib/format";
import { mediaKind } from "~/lib/media-kind";
import { readShareUnlock, shareUnlockCookie } from "~/http/share-cookie.server";
import { openShare } from "~/services/files/file-shares.server";
import type { Route } from "./+types/share-link";

const CLOSED = {
  expired: "This link has expired.",
  used_up: "This link has been viewed as many times as its owner allowed.",
} as const;

/**
 * /s/{token}: a share link with limits. Each page view spends one of its views; a password is asked
 * once per browser (a cookie scoped to this link); the bytes come from /s/{token}/raw.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const base = { appName: context.config.APP_NAME };
  const share = await openShare(context.db, params.token, { unlock: readShareUnlock(request) }, { countView: true });
  if (share.state === "missing") throw data("Share not found", { status: 404 });
  if (share.state === "expired" || share.state === "used_up") return data({ ...base, closed: CLOSED[share.state], locked: null, file: null }, { status: 410, headers: { "Cache-Control": "no-store" } });
  if (share.state === "locked") return data({ ...base, closed: null, locked: { wrongPassword: false }, file: null }, { status: 401, headers: { "Cache-Control": "no-store" } });
  const { file } = share;
  return data(
    {
      ...base,
      closed: null,
      locked: null,
      file: {
        name: file.original_filename,
        mimeType: file.mime_type,
        sizeBytes: Number(file.size_bytes),
        kind: mediaKind(file.mime_type),
        raw: `/s/${params.token}/raw`,
        viewsLeft: share.viewsLeft,
      },
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const password = String((await request.formData()).get("password") ?? "");
  // Checked without spending a view; the redirect's page view spends it.
  const share = await openShare(context.db, params.token, { password }, { countView: false });
  if (share.state === "missing") throw data("Share not found", { status: 404 });
  if (share.state === "locked") return data({ wrongPassword: true }, { status: 401 });
  const headers = new Headers();
  if (share.state === "open" && share.unlock) headers.append("Set-Cookie", shareUnlockCookie(params.token, share.unlock, context.config.cookieSecure));
  return redirect(`/s/${params.token}`, { status: 303, headers });
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData?.file ? `${loaderData.file.name} | ${loaderData.appName}` : `Shared file | ${loaderData?.appName ?? ""}` }, { name: "robots", content: "noindex" }];
}

export default function ShareLink({ loaderData, actionData }: Route.ComponentProps) {
  const { file, closed, locked } = loaderData;
  return (
    <main className="mx-auto flex min-h-screen max-w-5xl flex-col gap-4 px-4 py-8 sm:px-6">
      {closed ? <p className="m-auto text-lg" role="status">{closed}</p> : null}
      {locked ? (
        <Form method="post" className="m-auto w-full max-w-sm space-y-4 rounded-lg border p-6">
          <h1 className="flex items-center gap-2 text-xl font-semibold">
            <Lock className="size-5" aria-hidden />
            This file is protected
          </h1>
          <div className="space-y-2">
            <Label htmlFor="share-password">Password</Label>
            <Input id="share-password" name="password" type="password" autoComplete="off" required aria-invalid={actionData?.wrongPassword ? true : undefined} aria-describedby={actionData?.wrongPassword ? "share-password-error" : undefined} />
            {actionData?.wrongPassword ? (
              <p id="share-password-error" role="alert" className="text-sm text-destructive">
                That password is not right.
              </p>
            ) : null}
          </div>
          <Button type="submit" className="w-full">
            Open
          </Button>
        </Form>
      ) : null}
      {file ? (
        <>
          <div className="flex min-h-48 items-center justify-center overflow-hidden rounded-lg bg-black/80">
            {file.kind === "image" ? <img src={file.raw} alt={file.name} className="max-h-[80vh] h-auto w-auto object-contain" /> : null}
            {file.kind === "video" ? <video src={file.raw} controls playsInline className="max-h-[80vh] w-full" aria-label={file.name} /> : null}
            {file.kind === "audio" ? <audio src={file.raw} controls className="w-full p-6" aria-label={file.name} /> : null}
            {file.kind === "document" ? <p className="p-10 text-zinc-300">No preview for this file type</p> : null}
          </div>
          <div className="flex flex-wrap items-start justify-between gap-3">
            <div className="min-w-0">
              <h1 className="break-all text-xl font-semibold">{file.name}</h1>
              <p className="text-sm text-muted-foreground">
                {`${formatBytes(file.sizeBytes)} · ${file.mimeType}${file.viewsLeft !== null ? ` · ${file.viewsLeft === 1 ? "1 view" : `${file.viewsLeft} views`} left` : ""}`}
              </p>
            </div>
            <Button asChild>
              <a href={`${file.raw}?download=1`}>Download</a>
            </Button>
          </div>
          <p className="mt-auto border-t pt-4 text-sm text-muted-foreground">{`Shared with ${loaderData.appName}.`}</p>
        </>
      ) : null}
    </main>
  );
}

