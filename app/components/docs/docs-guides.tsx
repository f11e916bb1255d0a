import type { Bases } from "~/lib/content/api-examples";
import { jsUpload, lbPhonePresigned, lbPhoneUpload, lbPhoneWhitelist, npwdConfig, presignClient, qbPhoneWebhook, screenshotBasicServer, sharexUploader } from "~/lib/content/script-snippets";
import { C, Callout, DocSection, SnippetBlock, Table } from "~/components/docs/doc-parts";
import { KEY_PERMISSION_MAKERS, TEAM_ACTION_PERMISSIONS } from "~/lib/content/team-permissions";

export function Guides({ bases, appName }: { bases: Bases; appName: string }) {
  const cdnHost = new URL(bases.cdnUrl).host;
  return (
    <>
      <DocSection id="integration-guide" title="Integration guide">
        <p>
          Three ways in, from least to most work: point a Discord-webhook script at your {appName} webhook URL; configure a script&apos;s custom upload
          settings with your API URL and key; or call the API yourself from Lua or JavaScript. From a JavaScript resource or any Node tool:
        </p>
        <SnippetBlock snippet={jsUpload(bases)} />

        <DocSection id="guide-screenshot-basic" title="screenshot-basic" level={3}>
          <p>
            Server side, <C>requestClientScreenshot</C> hands you a data URI to upload as JSON (shown under{" "}
            <a href="#screenshot-integration" className="text-primary underline underline-offset-4">Screenshot integration</a>). Client side,{" "}
            <C>requestScreenshotUpload</C> posts multipart to a URL: give it a <a href="#presigned-uploads" className="text-primary underline underline-offset-4">presigned URL</a>{" "}
            so the key stays on the server.
          </p>
          <SnippetBlock snippet={screenshotBasicServer(bases)} />
          <SnippetBlock snippet={presignClient()} />
        </DocSection>

        <DocSection id="guide-lb-phone" title="LB Phone" level={3}>
          <p>
            Set the upload method for images, videos and audio to <C>Custom</C> in <C>config.lua</C>, then point the custom method at {appName}. Put your
            key where the example says <C>API_KEY</C> (LB Phone keeps upload keys server-side in recent versions; check its documentation for where).
            LB Phone reads the link from <C>url</C>; errors come back with <C>success: false</C>.
          </p>
          <SnippetBlock snippet={lbPhoneUpload(bases)} />
          <p>
            With the <C>Presigned</C> method the key never reaches players: LB Phone asks your server&apos;s <C>GetPresignedUrl</C> for each upload, and
            it returns where to upload (<C>upload</C>) and the link the file will have (<C>result</C>), both from one{" "}
            <a href="#presigned-uploads" className="text-primary underline underline-offset-4">presign</a> call.
          </p>
          <SnippetBlock snippet={lbPhonePresigned(bases)} />
          <p>
            LB Phone only accepts media links from whitelisted domains. Add your file host, <C>{cdnHost}</C>, to its upload domain whitelist or photos
            upload but never appear:
          </p>
          <SnippetBlock snippet={lbPhoneWhitelist(bases)} />
        </DocSection>

        <DocSection id="guide-npwd" title="NPWD" level={3}>
          <p>
            NPWD uploads camera photos from the client with the settings under <C>images</C> in <C>config.json</C>. It reads the link from the path in{" "}
            <C>returnedDataIndexes</C>; <C>data.url</C> is in every {appName} answer.
          </p>
          <SnippetBlock snippet={npwdConfig(bases)} />
          <Callout tone="warn">
            These settings reach players&apos; clients. Create a separate key for NPWD so you can revoke it on its own, or switch to presigned uploads.
          </Callout>
        </DocSection>

        <DocSection id="guide-qb-phone" title="qb-phone" level={3}>
          <p>
            qb-phone posts camera shots to a Discord webhook and reads <C>attachments[1].proxy_url</C> from the answer. Use your {appName} webhook URL
            instead; nothing else changes.
          </p>
          <SnippetBlock snippet={qbPhoneWebhook(bases)} />
        </DocSection>

        <DocSection id="guide-sharex" title="ShareX" level={3}>
          <p>
            For staff screenshots and clips: download the ready-made <C>.sxcu</C> file from the API Keys page (or save this one), put your key in
            it, double-click it to add {appName} as a custom uploader, and pick it under Destinations. ShareX copies the returned <C>url</C> to your
            clipboard.
          </p>
          <SnippetBlock snippet={sharexUploader(bases, appName)} />
        </DocSection>
      </DocSection>

      <DocSection id="teams" title="Teams and roles">
        <p>
          Servers, files, API keys, the plan and its storage belong to a team. Every account starts with a team of its own; invite your staff from{" "}
          <C>Team</C> in the portal by e-mail (the link works for 7 days and is accepted signed in with that address). The switcher in the header
          chooses the team every screen works in; scripts need nothing new, as a key already belongs to one server of one team.
        </p>
        <Table
          caption="What each role may do until an admin tailors it"
          head={["Role", "Permissions"]}
          rows={[
            ["Owner", "Everything, including transferring or handing over the team; one per team"],
            ["Admin", "View and delete media, manage servers, API keys and billing, view logs, manage members (and see the audit log)"],
            ["Developer", "View media, manage servers and API keys, view logs"],
            ["Member", "View media (and upload from the portal), view logs"],
          ]}
        />
        <p>An admin can tailor any member&apos;s permissions. What each action needs:</p>
        <Table caption="Which permission each action needs" head={["Action", "Needs"]} rows={TEAM_ACTION_PERMISSIONS.map((row) => [row.action, row.needs])} />
        <p>
          Without the permission the controls are not shown, and the server refuses the request anyway with a 403 that names the permission. A
          member can leave a team; the owner first makes another member owner and stays as an admin.
        </p>
        <p>
          <strong>A key never does more than the member who makes it.</strong> Creating a key, regenerating it (its new secret is in your hands) or
          widening its permissions needs, for each permission the key carries, the team permission below; the API Keys form shows the others
          disabled, with the reason. Keys made earlier keep their permissions.
        </p>
        <Table
          caption="What a member must hold to give a key each permission"
          head={["Key permission", "Its maker needs"]}
          rows={KEY_PERMISSION_MAKERS.map((row) => [<C key="p">{row.permission}</C>, row.needs])}
        />
        <p>
          <strong>Another team&apos;s ids reveal nothing.</strong> A file, case, key, server, member or saved search of another team is a 404
          with the same body a made-up id gets, before any other check: no 403, no &quot;in an open case&quot;, no name.
        </p>
        <p>
          <strong>The audit log</strong> (owners and admins) names what each entry acted on: a file as <C>cell-7.png (id)</C>, a bulk change as{" "}
          <C>4 files: a.png (id), b.png (id), c.png (id) and 1 more</C> (the exports list every file), keys by name, members by e-mail, cases as{" "}
          <C>Case XT-0020</C>. Refusals are there too, marked <em>Refused 403</em>: a key call refused a permission or another server&apos;s id, and a
          member&apos;s refused change, recorded as the action they tried; a change refused before it ran reads &quot;Was refused a change&quot;
          with the request, e.g. <C>POST /api/billing/create-checkout</C>. Opening a page is not recorded.
        </p>
      </DocSection>

      <DocSection id="logs-migration" title="Moving logs to Stash">
        <p>
          <strong>From Discord webhooks</strong> (JD_logs, qb-logs, ox_lib&apos;s discord logger): replace each webhook URL with your server&apos;s Stash
          webhook URL, exactly as for screenshots. Every message becomes a searchable entry in the <C>discord</C> dataset: the content and each
          embed&apos;s title, description and fields make the message, the embed&apos;s colour the level (red is error), <C>username</C> the resource,
          and the fields stay in metadata. Posts with files also store the files and link them from the entry.
        </p>
        <p>
          <strong>From Fivemanage</strong> (fmsdk, ox_lib&apos;s <C>fivemanage</C> logger): point the base URL at <C>{bases.appUrl}</C> and use a Stash key
          with Write logs as <C>fivemanage:key</C>; <C>/api/logs</C>, <C>/api/logs/batch</C> and <C>/api/v3/logs</C> take the same bodies and the{" "}
          <C>X-Fivemanage-Dataset</C> header. <strong>From Fivemerr</strong>: <C>/v1/logs</C> takes its single-entry body. <strong>From Loki</strong>{" "}
          (ox_lib&apos;s <C>loki</C> logger): set <C>loki:endpoint</C> to this host, <C>loki:user</C> to anything and <C>loki:key</C> to the key.
        </p>
        <p>
          <strong>From your own Lua</strong>: the Stash resource&apos;s <C>exports.stash:log(dataset, level, message, metadata)</C> batches entries
          (every 5 seconds or 100 entries), retries when Stash is busy, and adds a player&apos;s name and identifiers when <C>metadata.source</C> is
          a player id (their IP only if you set <C>stash_log_player_ip</C>).
        </p>
      </DocSection>

      <DocSection id="troubleshooting" title="Troubleshooting">
        <Table
          caption="Common problems, their causes and fixes"
          head={["Symptom", "Cause and fix"]}
          rows={[
            ["401 Invalid API key", "The key is mistyped, revoked or expired, or was sent in a header the script does not set. Check it under API Keys and send it as x-api-key."],
            ["403 on upload", "The key lacks upload permission, or server_id in the request names another server. Drop server_id: the key already identifies the server."],
            ["413 File too large", "The file is over the size limit or your storage quota is full. The answer's max_size_mb and file_size_mb say which; buy storage or upgrade on Billing."],
            ["415 on upload", "The file's type (read from its bytes) is not in the server's allowed file types. Add it on the server page."],
            ["Photos upload but do not show in the phone", `The phone only shows whitelisted domains: add ${cdnHost} (LB Phone), or the file is private: upload with is_public=true.`],
            ["Lua upload fails with 400", "PerformHttpRequest cannot send binary multipart. Send JSON with the image as a data URI in data (see Base64 uploads)."],
            ["Old links stopped working on the free plan", "Street keeps files for 30 days. Paid plans keep them forever."],
            ["429 Too Many Requests", "Per-server rate limit. Wait the seconds in Retry-After; batch several files into one multipart upload."],
          ]}
        />
      </DocSection>

      <DocSection id="response-codes" title="Response codes">
        <p>
          Errors always have the same JSON shape: <C>{'{ "success": false, "status": "error", "error": "…", "message": "…", "code": "…" }'}</C>.
          Scripts that test <C>error</C> for truth, or <C>success</C> for false, both work.
        </p>
        <Table
          caption="HTTP status codes"
          head={["Status", "Meaning"]}
          rows={[
            ["200", "Download, search or webhook success"],
            ["201", "Upload stored"],
            ["304", "Not modified (ETag matched)"],
            ["400", "Missing or invalid fields, e.g. no file or malformed metadata JSON"],
            ["401", "Missing or invalid API key"],
            ["403", "The key lacks permission, is used outside its limits (category, address; see scope), or server_id does not match the key's server"],
            ["404", "No such file, or a private file requested without its server's key"],
            ["413", "File too large or storage quota exceeded"],
            ["415", "File type not allowed on this server"],
            ["429", "Rate limited; see Retry-After"],
            ["500", "Server error; retry later"],
          ]}
        />
      </DocSection>
    </>
  );
}
