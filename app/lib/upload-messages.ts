import { FILE_INPUT_ACCEPT } from "~/lib/file-types";

/** Upload page strings from the spec, shared by the page and its endpoint. */
export const MISSING_UPLOAD_INFO = "Missing information - Please select a file and server.";
export const NO_SERVERS_MESSAGE = "No servers available - Create a server first to start uploading files.";
export const UPLOAD_FAILED_TITLE = "Upload failed";
export const UPLOAD_FAILED_FALLBACK = "An error occurred during upload.";

/** What the picker offers: every type of the file-type catalogue. The server still checks the bytes. */
export const UPLOAD_ACCEPT = FILE_INPUT_ACCEPT;
