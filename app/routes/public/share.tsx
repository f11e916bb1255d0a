import { Download, Flag } from "lucide-react";
import { data, Link } from "react-router";
import { Button } from "~/components/ui/button";
import { formatBytes, formatDate } from "~/lib/format";
import { mediaKind } from "~/lib/media-kind";
import { findFileById } from "~/services/files/lookup.server";
import { fileUrl } from "~/services/files/file-views.server";
import { isRasterImage } from "~/services/media/images.server";
import { findVariant, MP4_COPY_VARIANT } from "~/services/media/transforms.server";
import type { Route } from "./+types/share";
import { parseId } from "~/services/platform/ids.server";
import type { FileId } from "~/lib/ids";

/**
 * /v/{id}: a public file's share page. Its Open Graph and Twitter tags make a pasted link show the
 * picture or play the clip in Discord and on social media; the page itself shows it with a download
 * and a report link. Private, hidden, expired and unknown files are one and the same 404.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const fileId = parseId<FileId>(params.id);
  const file = fileId && (await findFileById(context.db, fileId));
  if (!file || !file.is_public || file.hidden_at) throw data("File not found", { status: 404 });
  const url = fileUrl(context.config.cdnBaseUrl, file);
  const kind = mediaKind(file.mime_type);
  // Discord and iPhones play H.264 where WebM fails: the MP4 copy, once made, is what the card points at.
  const copy = kind === "video" && file.mime_type !== "video/mp4" ? await findVariant(context.db, file.id, MP4_COPY_VARIANT) : undefined;
  // A video's transforms apply to its poster frame, so one address gives its preview image.
  const image = isRasterImage(file.mime_type) ? url : kind === "video" ? `${url}?w=1280&format=webp` : null;
  return data(
    {
      appName: context.config.APP_NAME,
      pageUrl: `${context.config.appUrl}/v/${file.id}`,
      reportUrl: `/report?url=${encodeURIComponent(url)}`,
      downloadUrl: `${context.config.appUrl}/api/download/${file.id}`,
      file: {
        name: file.original_filename,
        mimeType: file.mime_type,
        sizeBytes: Number(file.size_bytes),
        width: file.width,
        height: file.height,
        createdAt: new Date(file.created_at).toISOString(),
        url,
        video: copy ? { url: `${url}?format=mp4`, type: "video/mp4" } : { url, type: file.mime_type },
        image,
        kind,
      },
    },
    { headers: { "Cache-Control": "public, max-age=300" } },
  );
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData) return [{ title: "File not found" }];
  const { file, appName, pageUrl } = loaderData;
  const description = `${formatBytes(file.sizeBytes)} · shared on ${appName}`;
  const size = (prefix: string) =>
    file.width && file.height
      ? [
          { property: `${prefix}:width`, content: String(file.width) },
          { property: `${prefix}:height`, content: String(file.height) },
        ]
      : [];
  return [
    { title: `${file.name} | ${appName}` },
    { name: "robots", content: "noindex" },
    { property: "og:site_name", content: appName },
    { property: "og:title", content: file.name },
    { property: "og:description", content: description },
    { property: "og:url", content: pageUrl },
    { property: "og:type", content: file.kind === "video" ? "video.other" : "website" },
    ...(file.image ? [{ property: "og:image", content: file.image }, ...(file.kind === "image" ? size("og:image") : [])] : []),
    ...(file.kind === "video"
      ? [
          { property: "og:video", content: file.video.url },
          { property: "og:video:secure_url", content: file.video.url },
          { property: "og:video:type", content: file.video.type },
          ...size("og:video"),
        ]
      : []),
    ...(file.kind === "audio" ? [{ property: "og:audio", content: file.url }, { property: "og:audio:type", content: file.mimeType }] : []),
    { name: "twitter:card", content: file.image ? "summary_large_image" : "summary" },
    { name: "twitter:title", content: file.name },
    { name: "twitter:description", content: description },
    ...(file.image ? [{ name: "twitter:image", content: file.image }] : []),
  ];
}

export default function SharePage({ loaderData }: Route.ComponentProps) {
  const { file, appName, reportUrl, downloadUrl } = loaderData;
  return (
    <main className="mx-auto flex min-h-screen max-w-5xl flex-col gap-4 px-4 py-8 sm:px-6">
      <div className="flex min-h-48 items-center justify-center overflow-hidden rounded-lg bg-black/80">
        {file.kind === "image" ? <img src={file.url} alt={file.name} width={file.width ?? undefined} height={file.height ?? undefined} className="max-h-[80vh] h-auto w-auto object-contain" /> : null}
        {file.kind === "video" ? <video src={file.video.url} poster={file.image ?? undefined} controls playsInline className="max-h-[80vh] w-full" aria-label={file.name} /> : null}
        {file.kind === "audio" ? <audio src={file.url} controls className="w-full p-6" aria-label={file.name} /> : null}
        {file.kind === "document" ? <p className="p-10 text-zinc-300">No preview for this file type</p> : null}
      </div>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h1 className="break-all text-xl font-semibold">{file.name}</h1>
          <p className="text-sm text-muted-foreground">{`${formatBytes(file.sizeBytes)} · ${file.mimeType} · ${formatDate(file.createdAt)}`}</p>
        </div>
        <Button asChild>
          <a href={downloadUrl}>
            <Download aria-hidden />
            Download
          </a>
        </Button>
      </div>
      <footer className="mt-auto flex flex-wrap justify-between gap-2 border-t pt-4 text-sm text-muted-foreground">
        <Link to="/" className="hover:text-foreground">{`Hosted on ${appName}`}</Link>
        <Link to={reportUrl} className="inline-flex items-center gap-1 hover:text-foreground">
          <Flag className="size-3.5" aria-hidden />
          Report this file
        </Link>
      </footer>
    </main>
  );
}
