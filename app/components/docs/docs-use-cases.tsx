import type { Bases } from "~/lib/content/api-examples";
import { phoneUseCase, policeMdtLua, securityUseCase } from "~/lib/content/script-snippets";
import { C, Curl, DocSection, SnippetBlock } from "~/components/docs/doc-parts";

export function UseCases({ bases }: { bases: Bases }) {
  return (
    <>
      <DocSection id="phone-scripts" title="Phone scripts">
        <p>
          Phone photos should be public (<C>is_public=true</C>, the default for new servers) so the in-game gallery can show them without a key. Tag
          them with <C>player_identifier</C> so you can list a player&apos;s gallery later with the search API. Ready-made settings for LB Phone, NPWD and
          qb-phone are in the <a href="#integration-guide" className="text-primary underline underline-offset-4">integration guide</a>.
        </p>
        <SnippetBlock snippet={phoneUseCase(bases)} />
      </DocSection>

      <DocSection id="police-mdt" title="Police MDT">
        <p>
          Evidence and mugshots are usually private: upload with <C>is_public=false</C> and put the case number in <C>metadata</C>. Private files are
          only served to requests carrying your server&apos;s key.
        </p>
        <Curl name="policeEvidence" bases={bases} />
        <p>Find everything filed under a case with a metadata search:</p>
        <Curl name="searchMetadata" bases={bases} />
        <SnippetBlock snippet={policeMdtLua(bases)} />
      </DocSection>

      <DocSection id="housing-security" title="Housing and security">
        <p>
          Doorbells, CCTV and bodycams produce a lot of footage nobody needs next month. Upload it under its own category, such as{" "}
          <C>security_camera</C>, and set a retention rule of 30 days for that category on the server page: older footage is deleted automatically.
        </p>
        <Curl name="housingCamera" bases={bases} />
        <SnippetBlock snippet={securityUseCase()} />
      </DocSection>

      <DocSection id="inventory-items" title="Inventory items">
        <p>
          Item icons for your inventory UI can live on the CDN too. The file field may have any name (<C>file</C>, <C>image</C>, <C>files[]</C>, …), and{" "}
          <C>filename</C> sets the name shown in the portal. Serve a small version with an{" "}
          <a href="#image-transforms" className="text-primary underline underline-offset-4">image transform</a>.
        </p>
        <Curl name="inventoryImage" bases={bases} />
      </DocSection>
    </>
  );
}
