/**
 * What the audit trail (/audit) calls each recorded action; unknown actions show as recorded.
 * Every action the code records has one (audit-actions.test.ts reads the sources to check).
 */
export const AUDIT_ACTION_LABELS: Record<string, string> = {
  "file.upload": "Uploaded files",
  "file.upload_resumable": "Uploaded files (resumable)",
  "file.delete": "Deleted files",
  "file.visibility": "Changed visibility",
  "file.category": "Moved files",
  "file.keep_forever": "Changed keep forever",
  "file.search": "Searched files",
  "file.read": "Read a file",
  "file.sign_url": "Made a signed URL",
  "upload.presign": "Made an upload URL",
  "key.create": "Created an API key",
  "key.regenerate": "Regenerated an API key",
  "key.delete": "Deleted an API key",
  "key.update": "Changed an API key",
  "server.create": "Created a server",
  "server.update": "Changed a server",
  "server.delete": "Deleted a server",
  "server.retention": "Changed retention rules",
  "server.webhook_rotate": "Rotated the webhook URL",
  "file.share": "Made a share link",
  "file.unshare": "Revoked a share link",
  "logs.settings": "Changed log forwarding or alerts",
  "logs.write": "Sent logs",
  "logs.search": "Searched logs",
  "plan.addon": "Added storage",
  "plan.change": "Changed plan",
  "case.open": "Opened a case",
  "case.files": "Filed evidence",
  "case.close": "Closed a case",
  "case.reopen": "Reopened a case",
  "case.export": "Exported a case",
  "case.read": "Read a case",
  "case.members": "Changed who sees a case",
  "team.create": "Created a team",
  "team.rename": "Renamed the team",
  "team.transfer": "Transferred ownership",
  "member.invite": "Invited a member",
  "member.invite_revoke": "Revoked an invitation",
  "member.join": "Joined the team",
  "member.decline": "Declined an invitation",
  "member.update": "Changed a member's access",
  "member.remove": "Removed a member",
  "member.leave": "Left the team",
  "portal.refused": "Was refused a change",
  "import.create": "Started an import",
  "import.cancel": "Cancelled an import",
  "import.urls": "Added URLs to an import",
  "import.start": "Started an import's list",
  "import.list": "Listed imports",
  "import.read": "Read an import",
};

export function auditActionLabel(action: string): string {
  return Object.hasOwn(AUDIT_ACTION_LABELS, action) ? AUDIT_ACTION_LABELS[action]! : action;
}

/** Who may be filtered for: people in the portal, or API keys. */
export const AUDIT_ACTOR_KINDS = ["member", "key"] as const;
export type AuditActorKind = (typeof AUDIT_ACTOR_KINDS)[number];
