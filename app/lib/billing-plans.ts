import { PLANS, type Tier } from "~/lib/plans";

export interface PlanButton {
  label: "Current Plan" | "Free Hosting" | "Upgrade" | "Subscribe";
  disabled: boolean;
}

/**
 * Spec (customer portal §4): the current plan is disabled and labelled Current Plan; free is
 * disabled and labelled Free Hosting; another plan shows Upgrade when its storage is larger
 * than the current quota, otherwise Subscribe.
 */
export function planButton(tier: Tier, current: { tier: Tier; quotaGb: number }): PlanButton {
  if (tier === current.tier) return { label: "Current Plan", disabled: true };
  if (tier === "free") return { label: "Free Hosting", disabled: true };
  return { label: PLANS[tier].storageGb > current.quotaGb ? "Upgrade" : "Subscribe", disabled: false };
}
