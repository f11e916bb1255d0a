import { Link } from "react-router";
import { sampleUploadResponse, type Bases } from "~/lib/content/api-examples";
import { luaMultipartNote, screenshotBasicServer, serverCfg } from "~/lib/content/script-snippets";
import { C, Callout, Curl, DocSection, Json, SnippetBlock } from "~/components/docs/doc-parts";

export function GettingStarted({ bases, appName }: { bases: Bases; appName: string }) {
  return (
    <>
      <DocSection id="quick-start" title="Quick start">
        <ol className="list-decimal space-y-2 pl-5">
          <li>
            <Link to="/auth" className="text-primary underline underline-offset-4">
              Create an account
            </Link>{" "}
            and add your server under <strong>My Servers</strong>. Its server ID is shown on the server page.
          </li>
          <li>
            Open <strong>API Keys</strong>, create a key for that server and copy it. Keys start with <C>sk_</C> and are shown once.
          </li>
          <li>Upload a file. The response&apos;s <C>url</C> is a permanent link you can show in game:</li>
        </ol>
        <Curl name="quickStartUpload" bases={bases} />
        <p>
          Every example on this page uses this instance&apos;s address, <C>{bases.appUrl}</C>. Replace <C>YOUR_API_KEY</C> with your key and the file
          names with your own files.
        </p>
      </DocSection>

      <DocSection id="authentication" title="Authentication">
        <p>
          Send your API key in the <C>x-api-key</C> header. <C>Authorization: Bearer YOUR_API_KEY</C> works too, for scripts that only let you set an
          Authorization header; <C>Authorization: Key YOUR_API_KEY</C> and the bare key work as well. Where only the URL can be set, put the key in the
          query as <C>?api=</C> (LB Phone&apos;s URL template), <C>?apiKey=</C>, <C>?api_key=</C>, <C>?key=</C> or <C>?token=</C>; it never appears in
          the logs. A key belongs to one server, so you never need to send <C>server_id</C>; if you do, it must match the key&apos;s server.
        </p>
        <Curl name="authBearer" bases={bases} />
        <p>A missing, revoked or mistyped key answers 401 with a JSON error:</p>
        <Curl name="authBadKey" bases={bases} />
        <Callout tone="warn">
          Keep keys on the server side: read them from a convar, never commit them, and never send them to players&apos; clients. When a client has to
          upload directly, use a <a href="#presigned-uploads" className="text-primary underline underline-offset-4">presigned upload</a> instead.
        </Callout>
        <SnippetBlock snippet={serverCfg()} />
      </DocSection>

      <DocSection id="screenshot-integration" title="Screenshot integration">
        <p>
          Most FiveM screenshot flows use <C>screenshot-basic</C>. On the server, <C>requestClientScreenshot</C> returns the image as a data URI, which you
          post to {appName} as JSON. {luaMultipartNote()}
        </p>
        <SnippetBlock snippet={screenshotBasicServer(bases)} />
        <p>
          For uploads straight from the client, see the <a href="#guide-screenshot-basic" className="text-primary underline underline-offset-4">screenshot-basic guide</a>.
        </p>
      </DocSection>

      <DocSection id="first-upload" title="Your first upload">
        <p>
          A fuller upload: a phone photo, tagged with the player who took it and free-form metadata you can search on later. <C>is_public</C> is the string{" "}
          <C>true</C> or <C>false</C>; <C>metadata</C> is a JSON string.
        </p>
        <Curl name="firstUpload" bases={bases} />
        <p>The answer (201 Created) carries the fields every common script reads:</p>
        <UploadResponse bases={bases} />
      </DocSection>
    </>
  );
}

export function UploadResponse({ bases }: { bases: Bases }) {
  return <Json value={sampleUploadResponse(bases.cdnUrl)} label="201 Created" />;
}
