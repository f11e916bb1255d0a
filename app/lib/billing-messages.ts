/** Exact strings of the Billing screen and the billing endpoints (customer-portal spec §4, §5, §8). */
export const BILLING_MESSAGES = {
  signInToSubscribe: "Please sign in to subscribe",
  signInToManage: "Please sign in to manage subscription",
  subscriptionSuccess: "Subscription successful!",
  subscriptionCanceled: "Subscription canceled",
  storageSuccess: "Storage purchased successfully!",
  storageCanceled: "Storage purchase canceled",
  errorChecking: "Error checking subscription",
  errorCheckout: "Error creating checkout",
  errorPortal: "Error opening customer portal",
  purchaseFailedTitle: "Purchase failed",
  purchaseFailedMessage: "Unable to initiate storage purchase. Please try again.",
  invalidAmountTitle: "Invalid amount",
  invalidAmountMessage: "Please enter a valid storage amount.",
  paymentsDisabled: "Payments are not enabled on this instance. An administrator can change your plan and add storage.",
} as const;
