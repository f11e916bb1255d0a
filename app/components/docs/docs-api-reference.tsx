import { NAMED_CATEGORIES } from "~/lib/categories";
import { DEFAULT_FILE_TYPES, FILE_TYPE_GROUPS } from "~/lib/file-types";
import { FILE_RESPONSE_HEADERS, sampleSearchResponse, type Bases } from "~/lib/content/api-examples";
import { discordMigration, luaBase64Upload, luaMultipartNote, presignClient, presignServer, resumableUploadJs } from "~/lib/content/script-snippets";
import { C, Callout, Curl, DocSection, Json, SnippetBlock, Table } from "~/components/docs/doc-parts";
import { UploadResponse } from "~/components/docs/docs-getting-started";
import { EndpointsTable, FieldsTable, LogEndpointsTable } from "~/components/docs/docs-contract-tables";
import { SearchQuery } from "~/lib/api-contract/files";
import { LOG_OPERATIONS } from "~/lib/api-contract/logs";
import { apiOperation } from "~/lib/api-contract/operations";
import { UploadMultipart } from "~/lib/api-contract/uploads";

/** "yes" when a new server allows every type of a group, else the ones it allows, else "no". */
function onForNewServers(names: string[]): string {
  const on = names.filter((name) => DEFAULT_FILE_TYPES.includes(name));
  if (on.length === names.length) return "yes";
  return on.length ? on.join(", ") : "no";
}

export function ApiReference({ bases, maxUploadMb }: { bases: Bases; maxUploadMb: number }) {
  return (
    <>
      <DocSection id="api-overview" title="API overview">
        <p>
          The API lives at <C>{bases.appUrl}/api</C> and files are served from <C>{bases.cdnUrl}/f</C>. Requests and answers are JSON unless noted;
          every endpoint answers CORS preflights for any origin, so NUI pages (<C>https://cfx-nui-…</C>) can call it. The machine-readable description
          is at <a href={`${bases.appUrl}/api/openapi.json`} className="text-primary underline underline-offset-4">/api/openapi.json</a>.
        </p>
        <EndpointsTable />
        <p>
          Files are limited to {maxUploadMb}MB each (and to your server&apos;s own maximum, if lower); one request carries up to 20 files, and if any
          of them is refused none is stored. The type is read from the file&apos;s bytes, not
          its name. Rate limits apply per server; when you hit one the answer is 429 with a <C>Retry-After</C> header in seconds.
        </p>
        <p>
          A key can be limited when it is made (API Keys page, or <C>categories</C>, <C>max_file_mb</C> and <C>allowed_ips</C> on{" "}
          <C>POST /api/keys</C>): to the categories it may upload to (<C>phone_*</C> matches every category starting with <C>phone_</C>), to a
          smaller file size than the server&apos;s, and to the addresses it may be used from (your game server&apos;s IP, or a CIDR range). A call
          outside those limits answers 403 <C>permission_denied</C> naming the limit in <C>scope</C>, stores nothing and is recorded against the key;
          a file over the key&apos;s size answers 413.
        </p>
        <Curl name="health" bases={bases} />
      </DocSection>

      <DocSection id="upload-api" title="Upload API">
        <p>
          <C>POST /api/upload</C> with a <C>multipart/form-data</C> body. Every file part is stored, whatever its field name, so a request can carry
          several files; <C>files</C> in the answer lists them all.
        </p>
        <FieldsTable caption="Upload fields" head={["Field", "Description"]} fields={UploadMultipart} />
        <Curl name="firstUpload" bases={bases} />
        <p>
          Images are stored without their metadata (EXIF, GPS) and, on new servers, converted to WebP: the
          answer&apos;s <C>filename</C> and <C>mime_type</C> say what is stored, <C>original_filename</C> keeps the name you sent.
        </p>
        <UploadResponse bases={bases} />
        <p>Errors carry a machine-readable code and, for size errors, the limits:</p>
        <Json
          label="413 Payload Too Large"
          value={{
            success: false,
            status: "error",
            error: `File size exceeds maximum allowed size of ${maxUploadMb}MB`,
            message: `File size exceeds maximum allowed size of ${maxUploadMb}MB`,
            code: "file_too_large",
            max_size_mb: maxUploadMb,
            file_size_mb: 61.2,
          }}
        />
      </DocSection>

      <DocSection id="categories" title="Categories">
        <p>
          <C>category</C> is an open set: send any name your script uses. It is stored as a lower-case slug (letters, digits, <C>_</C> and <C>-</C>, up to
          40 characters, so <C>Phone Photos</C> becomes <C>phone_photos</C>), it is part of the file&apos;s URL, and search and retention rules match it
          exactly. The portal labels the names below and lists every other category your files use under its own name, with its file count. In the
          gallery filter and analytics, the spellings in the last column (and <C>-</C> for <C>_</C>) are shown together with their name.
        </p>
        <Table
          caption="Named categories"
          head={["Category", "Shown as", "For", "Shown with it"]}
          rows={NAMED_CATEGORIES.map((c) => [
            <C key="n">{c.name}</C>,
            c.label,
            c.description,
            c.aliases.length ? <C key="a">{c.aliases.join(", ")}</C> : "",
          ])}
        />
      </DocSection>

      <DocSection id="file-types" title="File types">
        <p>
          The type of every upload is read from its bytes, never from its name or <C>Content-Type</C>, and must be one the server allows. New servers
          allow every image, video and audio type and PDF, so phone photos (WebP), videos (WebM), voice notes (WebM or Ogg Opus) and report PDFs work
          without changing a setting; text files and game resources are switched on per server in its settings. A WebM or Ogg without a video track is audio (
          <C>audio/webm</C>, <C>audio/ogg</C>). A refused type answers <C>415 unsupported_file_type</C> listing the allowed types by group.
        </p>
        <Table
          caption="File types by group"
          head={["Group", "Types", "On for new servers"]}
          rows={FILE_TYPE_GROUPS.map((group) => [
            group.label,
            <C key="t">{group.types.map((t) => (t.aliases.length ? `${t.name} (${t.aliases.join(", ")})` : t.name)).join(", ")}</C>,
            onForNewServers(group.types.map((t) => t.name)),
          ])}
        />
      </DocSection>

      <DocSection id="base64-uploads" title="Base64 uploads from Lua">
        <p>
          {luaMultipartNote()} Send <C>{"{ data, filename, category, … }"}</C> to <C>/api/upload/base64</C> (or to <C>/api/upload</C> with a JSON content
          type). <C>data</C> may be a data URI or bare base64; <C>base64</C> and <C>file</C> are accepted as its name too. The other fields are the same as
          for multipart.
        </p>
        <Curl name="base64Json" bases={bases} />
        <SnippetBlock snippet={luaBase64Upload(bases)} />
        <p>
          Shorter forms for clients that cannot build JSON either: a form body (<C>application/x-www-form-urlencoded</C>) with the data URI or
          base64 in <C>file</C> or <C>data</C> and the other fields beside it (a <C>+</C> left unescaped is read as <C>+</C>); the data URI or bare
          base64 as the whole body, whatever its <C>Content-Type</C>; or the raw bytes with the file type as <C>Content-Type</C> and the name in{" "}
          <C>X-Filename</C>. For the last two, the other fields go in the query string.
        </p>
        <Curl name="rawDataUri" bases={bases} />
        <Curl name="rawBytes" bases={bases} />
      </DocSection>

      <DocSection id="presigned-uploads" title="Presigned uploads">
        <p>
          When a player&apos;s client must upload directly (a phone camera, a NUI page), your server asks for a single-use URL and hands it to the
          client. The client uploads with no key at all: <C>PUT</C> the raw bytes, or <C>POST</C> multipart as usual. The URL is valid for{" "}
          <C>expires_in</C> seconds (default 300, at most 3600) and can pin <C>category</C>, <C>player_name</C>, <C>player_identifier</C> and a
          lower <C>max_size_mb</C>; the answer&apos;s <C>url</C> (also <C>upload</C>, <C>presignedUrl</C>) is the address to upload to. The answer
          also names the link the file will have, before it exists: <C>result</C>, <C>public_url</C>, <C>data.url</C>. The file lands exactly
          there (one file per URL; send <C>mime_type</C>, e.g. <C>image/webp</C>, to give the link its extension). LB Phone&apos;s presigned method
          takes exactly this pair: see <a href="#guide-lb-phone" className="text-primary underline underline-offset-4">LB Phone</a>.
        </p>
        <Curl name="presign" bases={bases} />
        <Curl name="presignedPut" bases={bases} />
        <SnippetBlock snippet={presignServer(bases)} />
        <SnippetBlock snippet={presignClient()} />
      </DocSection>

      <DocSection id="resumable-uploads" title="Resumable uploads">
        <p>
          For slow links and large files (resource packs, long recordings), upload with the tus protocol at <C>{bases.appUrl}/api/uploads/tus</C>{" "}
          and the same API key. The upload survives a dropped connection: the client asks how far it got (<C>HEAD</C>) and continues from there.
          Sizes, types and quota are checked when it is created and again when it completes; the last request answers with the same JSON as{" "}
          <C>POST /api/upload</C>. Unfinished uploads are deleted after 24 hours and never count toward your storage.
        </p>
        <SnippetBlock snippet={resumableUploadJs(bases)} />
      </DocSection>

      <DocSection id="search-api" title="Search API">
        <p>
          <C>GET /api/search</C> lists your server&apos;s files, newest first. Page with <C>limit</C> and <C>offset</C> (default limit 50) or with{" "}
          <C>page</C> and <C>limit</C> (default limit 20); the maximum limit is 100. <C>total</C> counts matches up to 10,000; past that{" "}
          <C>total_capped</C> is <C>true</C> and <C>has_more</C> still tells you whether another page exists.
        </p>
        <FieldsTable caption="Search parameters" head={["Parameter", "Description"]} fields={SearchQuery} />
        <Curl name="search" bases={bases} />
        <Json label="200 OK" value={sampleSearchResponse(bases.cdnUrl)} />
      </DocSection>

      <DocSection id="download-api" title="Download API">
        <p>
          Download by path (<C>SERVER_ID/CATEGORY/FILENAME</C>, as in the file&apos;s URL) or by id. Public files need no key; private files need a key
          of their server. Both support <C>HEAD</C>, <C>Range</C> requests and <C>ETag</C> revalidation.
        </p>
        <Curl name="downloadByPath" bases={bases} />
        <Curl name="downloadPrivate" bases={bases} />
      </DocSection>

      <DocSection id="private-files" title="Private files and signed URLs">
        <p>
          Public means the bytes at an unguessable URL, never the record: <C>GET /api/files/ID</C> (player identifier, metadata) needs a key of the
          file&apos;s server for every file, and answers anyone else exactly like a missing file. To show a private file where no key can go (an
          in-game phone gallery, an MDT, a browser), ask for a signed URL: it opens the file, with <C>Range</C> and transforms, until it expires
          (<C>expires_in</C> 60 seconds to 7 days, default 1 hour). Rotating the server&apos;s webhook secret revokes every signed URL at once.
        </p>
        <Curl name="signedUrl" bases={bases} />
      </DocSection>

      <DocSection id="evidence-cases" title="Evidence cases">
        <p>
          An MDT can keep evidence out of reach of retention rules: send <C>case=LSPD-2291</C> with an upload (the case is opened if it is new), or
          open it first with <C>POST /api/cases</C> and <C>{'{"number": "LSPD-2291", "title": "Vinewood robbery"}'}</C>. While a case is open its
          files are kept and served (<C>/f/</C>, <C>/api/download/ID</C>, <C>/api/files/ID</C>) whatever your plan or retention rules say, and
          deleting one answers 409 <C>file_in_open_case</C> (another team&apos;s key gets the 404 any unknown file gets). A key with delete
          permission closes or reopens it (<C>POST /api/cases/NUMBER/close</C>, <C>/reopen</C>). In the portal, owners and admins can restrict a
          case to some members of the team (&quot;Who may see it&quot;); everyone else in the team does not see it at all.
        </p>
        <p>
          <C>GET /api/cases/NUMBER/export</C> downloads the case as a zip: the files, <C>manifest.json</C> with each file&apos;s SHA-256, upload
          time, uploading key and who filed it, and <C>manifest.sig</C>. Whoever receives the zip can check it with{" "}
          <C>POST /api/cases/verify</C> and <C>{'{"manifest": "…", "signature": "…"}'}</C>: the answer says whether the manifest is exactly what
          Stash exported.
        </p>
      </DocSection>

      <DocSection id="file-serving" title="File serving path">
        <p>
          <C>{bases.cdnUrl}/f/SERVER_ID/CATEGORY/FILENAME</C> is the link in every upload answer (<C>url</C>, <C>public_url</C>, <C>link</C>). File names
          are generated, so a link never changes and is cached for a year by browsers and CDNs. Private files are served here only with a key of their
          server or a signed URL.
        </p>
        <Curl name="fileHead" bases={bases} />
      </DocSection>

      <DocSection id="image-transforms" title="Image transforms">
        <p>
          Add query parameters to a public image link to get a resized or converted copy, made once and then cached. An invalid value is refused
          with a 400 that says which parameter is wrong. <C>?w=320&amp;format=webp</C> is prepared at upload, so it is as fast as the original.
          The presets <C>?preset=thumb</C>, <C>small</C>, <C>medium</C> and <C>large</C> (320, 640, 1280 and 1920 px WebP) suit most layouts. Other
          widths and heights snap up to the next standard size (<C>w=333</C> gives 400 px) and quality to the nearest ten; each address may have 60
          new sizes made a minute (then 429 with Retry-After), and a file keeps its 10 most recently used sizes.
        </p>
        <Table
          caption="Image transform parameters"
          head={["Parameter", "Values"]}
          rows={[
            [<C key="t">preset</C>, "thumb (320), small (640), medium (1280) or large (1920): a WebP of that width, unless format says otherwise"],
            [<C key="t">w</C>, "Width in pixels, 1–4096, snapped up to a standard size"],
            [<C key="t">h</C>, "Height in pixels, 1–4096, snapped up to a standard size"],
            [<C key="t">fit</C>, "inside (default: fit within w×h, never crop), cover (fill and crop) or contain (fit and letterbox)"],
            [<C key="t">format</C>, "webp, avif, jpeg or png; auto picks AVIF or WebP from the browser's Accept header. Default: the original's format"],
            [<C key="t">q</C>, "Quality 20–100, default 80, snapped to the nearest of 40, 50 … 100"],
          ]}
        />
        <Curl name="transform" bases={bases} />
        <p>
          <C>format=auto</C> answers AVIF once it has been made: the first request from a browser that accepts AVIF gets WebP (cached for a minute)
          while the AVIF is encoded in the background, for images up to 1,600 px.
        </p>
      </DocSection>

      <DocSection id="video-and-previews" title="Video, previews and placeholders">
        <p>
          Phone and bodycam clips arrive as WebM, which iPhones and Discord do not always play. Stash makes an H.264 MP4 copy of every WebM,
          Matroska, QuickTime, AVI or Ogg video in the background: right after upload on paid plans, and on the first request for it on the free plan
          (that request gets the original). Ask for it with <C>?format=mp4</C>; <C>?format=auto</C> gives it to Safari and iPhones and the original to
          everyone else. The copy starts playing before it has fully downloaded, is at most 1.5 times the original&apos;s size and counts toward your
          storage. <C>GET /api/files/ID</C> lists it as <C>mp4_url</C> once it exists.
        </p>
        <p>
          Every image and video answer carries <C>width</C>, <C>height</C> and <C>thumbhash</C>: a 25-byte placeholder you can draw, blurred, before the
          picture loads (decode it with the <C>thumbhash</C> package). Videos also get a poster (<C>?w=320&amp;format=webp</C> gives it at any size) and
          a 3-second animated preview; voice notes get a waveform picture and their duration.
        </p>
        <p>
          Every public file has a share page, <C>{bases.appUrl}/v/FILE_ID</C>: pasted in Discord or on social media it shows the picture or plays the
          clip (it points embeds at the MP4 copy once made), and it carries a link for reporting the file.
        </p>
        <p>
          For a link with limits, open the file in the portal and create a share link: it can expire (1 hour to 30 days), ask for a password and
          stop after a number of views, and it works for private files too. Revoke it there at any time.
        </p>
      </DocSection>

      <DocSection id="response-headers" title="Response headers">
        <p>What file responses (<C>/f/…</C> and <C>/api/download</C>) carry:</p>
        <Table caption="File response headers" head={["Header", "Meaning"]} rows={FILE_RESPONSE_HEADERS.map(([name, meaning]) => [<C key="h">{name}</C>, meaning])} />
      </DocSection>

      <DocSection id="discord-webhooks" title="Discord webhook migration">
        <p>
          Scripts that post screenshots to a Discord webhook work unchanged: replace the webhook URL with your server&apos;s {""}
          <strong>webhook URL</strong> from its page in the portal. It accepts Discord&apos;s multipart format (<C>payload_json</C> plus <C>files[n]</C>
          ) and answers like Discord, with <C>attachments[].url</C> and <C>attachments[].proxy_url</C> pointing at your files.
        </p>
        <SnippetBlock snippet={discordMigration(bases)} />
        <Curl name="webhook" bases={bases} />
        <Callout>The webhook URL contains a secret: treat it like an API key. You can rotate it on the server page.</Callout>
      </DocSection>

      <DocSection id="logs" title="Logs">
        <p>
          Scripts send log entries with a key that has the <strong>Write logs</strong> permission. Each entry has a <C>message</C> and optionally{" "}
          <C>level</C> (trace, debug, info, warn, error, fatal; <C>warning</C>, <C>critical</C> and friends are understood), <C>resource</C>,{" "}
          <C>metadata</C> (a JSON object up to 16 KB), <C>timestamp</C> (ISO text or epoch seconds, milliseconds or nanoseconds) and <C>dataset</C>.
          Send one object, an array, or <C>{"{\"logs\": [...]}"}</C>: up to 1,000 entries or 2 MB per request (413 beyond). The dataset is the
          entry&apos;s <C>dataset</C>, else the <C>X-Fivemanage-Dataset</C> header, else <C>default</C>; each dataset keeps its entries for its own
          number of days (set on the Logs page, at most your plan&apos;s). Past the plan&apos;s monthly volume the answer is 429 and nothing is stored.
        </p>
        <Curl name="logsSend" bases={bases} />
        <LogEndpointsTable operations={[...LOG_OPERATIONS, apiOperation("post", "/api/webhooks/{server_id}/{secret}")]} />
        <Curl name="logsDiscord" bases={bases} />
        <Curl name="logsSearch" bases={bases} />
      </DocSection>
    </>
  );
}
