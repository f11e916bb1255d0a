import { DomainError } from "../../app/services/platform/domain-error.server.ts";

/** The DomainError `run` throws; fails the test when it returns or throws anything else. */
export function refusal(run: () => unknown): DomainError {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error("expected a DomainError, but nothing was thrown");
}

/** The DomainError the promise `run` returns rejects with. */
export async function asyncRefusal(run: () => Promise<unknown>): Promise<DomainError> {
  try {
    await run();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error("expected a DomainError, but the promise resolved");
}
