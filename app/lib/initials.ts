/** Up to two letters for an avatar: first letters of the first two words, else of the e-mail. */
export function initials(displayName: string | null | undefined, email?: string | null): string {
  const words = (displayName ?? "").trim().split(/\s+/).filter(Boolean);
  const letters = words.length >= 2 ? [[...words[0]!][0], [...words[1]!][0]] : words[0] ? [...words[0]].slice(0, 2) : [...(email ?? "")].slice(0, 1);
  return letters.join("").toUpperCase() || "U";
}
