import { API_KEY_PERMISSIONS, KEY_PERMISSION_REQUIRES, type ApiKeyPermission } from "~/lib/api-key-status";
import { PERMISSION_LABELS } from "~/lib/team-roles";

/**
 * Which team permission each thing a member does in the portal needs: the table /docs#teams and
 * docs/teams.md show (a test checks the page's table is this one). The server enforces each row
 * (tests/integration/team-role-matrix.test.ts runs every role against them).
 */
export const TEAM_ACTION_PERMISSIONS: { action: string; needs: string }[] = [
  { action: "Dashboard, Analytics, the Team page, creating a team of your own", needs: "Any member" },
  { action: "Gallery, a file's page, Storage Manager, View, Download, thumbnails, zip downloads", needs: PERMISSION_LABELS.view_media },
  { action: "Uploading from the portal", needs: PERMISSION_LABELS.view_media },
  { action: "Opening a case, filing a file into it, exporting it", needs: PERMISSION_LABELS.view_media },
  { action: "Deleting files; changing visibility, category or keep forever; share links", needs: PERMISSION_LABELS.delete_media },
  { action: "Closing or reopening a case (it decides whether evidence may be deleted)", needs: PERMISSION_LABELS.delete_media },
  { action: "Creating, changing and deleting servers; retention rules; rotating the webhook URL", needs: PERMISSION_LABELS.manage_servers },
  { action: "Logs: searching, live tail, exports, saved searches", needs: PERMISSION_LABELS.view_logs },
  { action: "Logs: forwards to Discord, alerts, dataset retention", needs: `${PERMISSION_LABELS.view_logs} and ${PERMISSION_LABELS.manage_servers}` },
  { action: "API Keys page and /api/keys: listing, creating, changing, regenerating, deleting keys", needs: PERMISSION_LABELS.manage_keys },
  { action: "Billing: plan, checkout, storage add-ons, the Stripe portal", needs: PERMISSION_LABELS.manage_billing },
  { action: "Inviting, changing or removing members; renaming the team; who sees a case", needs: PERMISSION_LABELS.manage_members },
  { action: "Audit Log and its CSV and NDJSON exports", needs: PERMISSION_LABELS.manage_members },
  { action: "Transferring ownership", needs: "The owner only" },
  { action: "Leaving the team", needs: "Anyone but the owner" },
];

/** Each key permission and the team permission its maker must hold (decision 098). */
export const KEY_PERMISSION_MAKERS: { permission: ApiKeyPermission; needs: string }[] = API_KEY_PERMISSIONS.map((permission) => ({
  permission,
  needs: PERMISSION_LABELS[KEY_PERMISSION_REQUIRES[permission]],
}));
