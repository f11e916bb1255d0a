/** One day of an account's activity, as the analytics service computes it and the charts draw it. */
export interface DayPoint {
  day: string;
  uploads: number;
  uploadBytes: number;
  downloads: number;
  downloadBytes: number;
  apiCalls: number;
  /** Bytes of the files still stored that had been uploaded by the end of this day. */
  storedBytes: number;
}
