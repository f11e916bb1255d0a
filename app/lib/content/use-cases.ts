import type { Bases } from "~/lib/content/api-examples";
import { phoneUseCase, policeMdtLua, resourcesUseCase, securityUseCase, type Snippet } from "~/lib/content/script-snippets";

/** The tabbed use cases on /fivem-cdn: copy here, code in script-snippets.ts. */
export const USE_CASES: { id: string; label: string; title: string; body: string; snippet: (bases: Bases) => Snippet }[] = [
  {
    id: "phone",
    label: "Phone",
    title: "Phone photos, videos and voice notes",
    body: "Camera, gallery and voice-memo uploads from LB Phone, NPWD, qb-phone or your own phone. Links work in game immediately and never expire on paid plans.",
    snippet: phoneUseCase,
  },
  {
    id: "resources",
    label: "Resources",
    title: "Vehicle, clothing and map packs",
    body: "Host previews and downloads for heavy resources instead of bloating your server's stream folder.",
    snippet: resourcesUseCase,
  },
  {
    id: "police",
    label: "Police",
    title: "MDT mugshots and evidence lockers",
    body: "Private evidence with case numbers in metadata, searchable by case, officer or suspect.",
    snippet: policeMdtLua,
  },
  {
    id: "security",
    label: "Security",
    title: "Security cameras and bodycams",
    body: "Stills and clips from CCTV, doorbells and bodycams, cleaned up automatically after 30 days.",
    snippet: securityUseCase,
  },
];
