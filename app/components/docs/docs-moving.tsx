import type { Bases } from "~/lib/content/api-examples";
import { CodeBlock } from "~/components/docs/code-block";
import { C, Callout, DocSection } from "~/components/docs/doc-parts";

/** "Moving to Stash": the short public guide per source (docs/moving-to-stash.md is the long one). */
export function MovingToStash({ bases, appName }: { bases: Bases; appName: string }) {
  const rewrite = `UPDATE IGNORE \`phone_photos\` SET \`link\` = REPLACE(SUBSTRING_INDEX(\`link\`, '?', 1), 'https://cdn.discordapp.com/', '${bases.cdnUrl}/dc/')
  WHERE \`link\` LIKE 'https://cdn.discordapp.com/attachments/%' AND CHAR_LENGTH(REPLACE(SUBSTRING_INDEX(\`link\`, '?', 1), 'https://cdn.discordapp.com/', '${bases.cdnUrl}/dc/')) <= 200;`;
  const api = `curl -X POST "${bases.appUrl}/api/imports" -H "x-api-key: YOUR_API_KEY" -F source=discord_export -F file=@export.zip
curl "${bases.appUrl}/api/imports/IMPORT_ID" -H "x-api-key: YOUR_API_KEY"   # progress, then the report`;
  return (
    <DocSection id="moving-to-stash" title={`Moving to ${appName}: bring your history`}>
      <p>
        Discord attachment links now expire (their <C>ex</C> parameter, about a day), and years of phone photos, evidence and logs sit on Discord and
        other hosts. An import brings them over from the portal&apos;s <C>Import</C> page, <C>POST /api/imports</C> or the CLI (<C>import:discord</C>,{" "}
        <C>import:urls</C>, <C>import:fivemanage</C>, <C>import:zipline</C>, <C>import:folder</C>): every file goes through the upload checks, the same
        file is stored once, only stored files count against your storage, and the report lists what could not be brought and why.
      </p>
      <DocSection id="moving-discord-export" title="DiscordChatExporter export" level={3}>
        <p>
          Export the channel as JSON. With <C>--media</C>, zip the <C>.json</C> with its <C>_Files</C> folder: nothing is fetched from Discord. Without it,
          upload the <C>.json</C> with your bot&apos;s token so the expired links are refreshed. Embeds become log entries in the <C>discord-import</C>{" "}
          dataset.
        </p>
      </DocSection>
      <DocSection id="moving-urls-bot" title="A list of URLs, or your bot" level={3}>
        <p>
          Paste links one per line (Discord&apos;s and Fivemanage&apos;s need nothing more; name any other host). Or give your bot&apos;s token and channel
          ids: it reads each channel and needs the Message Content intent, or Discord hides the attachments.
        </p>
      </DocSection>
      <DocSection id="moving-other-hosts" title="Fivemanage, Zipline, a folder" level={3}>
        <p>
          Fivemanage: your API key lists your files. Zipline: its export (Administration → Export) and your instance&apos;s address; each file is
          fetched from it. A folder: upload it as a <C>.zip</C>.
        </p>
      </DocSection>
      <DocSection id="moving-refresh-endpoint" title="Discord's refresh endpoint" level={3}>
        <Callout tone="warn">
          Expired links are refreshed with <C>POST /api/v10/attachments/refresh-urls</C>, 50 at a time. Discord&apos;s clients use it, but it is not
          in Discord&apos;s documented API and may change: when it does not answer, the report says so and {appName} reads each message with your bot
          instead.
        </Callout>
      </DocSection>
      <DocSection id="moving-game-database" title="Fixing the game database" level={3}>
        <p>
          Every rescued Discord file answers at <C>{`${bases.cdnUrl}/dc/attachments/{channel_id}/{attachment_id}/{filename}`}</C> (any query string
          ignored), so one statement per table repairs it. The report gives it for LB Phone, qb-phone and NPWD, checked against the column (LB
          Phone&apos;s link is 200 characters), with a CSV map of old to new links. The FiveM resource does it for you: <C>stash_import_scan</C>, then{" "}
          <C>stash_import_apply</C>.
        </p>
        <CodeBlock code={rewrite} language="sql" label="LB Phone (back the database up first)" />
        <CodeBlock code={api} language="bash" label="the same from the API" />
      </DocSection>
    </DocSection>
  );
}
