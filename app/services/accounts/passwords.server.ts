import { hash, verify } from "@node-rs/argon2";

// argon2id at 19 MiB / 2 passes (OWASP's baseline). Each hash holds that memory, so a burst
// of sign-ins is queued rather than allowed to exhaust memory or both cores.
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;
const MAX_CONCURRENT = 4;

let running = 0;
const waiting: Array<() => void> = [];

async function limited<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_CONCURRENT) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

export function hashPassword(password: string): Promise<string> {
  return limited(() => hash(password, OPTIONS));
}

export function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  return limited(() => verify(passwordHash, password).catch(() => false));
}
