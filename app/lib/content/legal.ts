/**
 * The About, Terms and Privacy pages. An operator running their own instance edits this file; `{app}`
 * stands for APP_NAME. Written to say what the code does: what is stored, for how long, who sees it.
 */

export interface InfoPage {
  path: "/about" | "/terms" | "/privacy";
  title: string;
  description: string;
  updated: string;
  sections: { heading: string; paragraphs: string[] }[];
}

export const INFO_PAGES: Record<"about" | "terms" | "privacy", InfoPage> = {
  about: {
    path: "/about",
    title: "About {app}",
    description: "{app} hosts the screenshots, videos and voice notes of FiveM roleplay servers, with links that do not expire.",
    updated: "2026-11-26",
    sections: [
      {
        heading: "What we do",
        paragraphs: [
          "{app} is a media CDN for FiveM roleplay servers. Phone, police MDT, bodycam, security camera and screenshot scripts upload through one API, and every file gets a link that keeps working, unlike Discord attachments whose links now expire.",
          "Server owners manage their files, keys, retention rules and storage plan in the portal.",
        ],
      },
      {
        heading: "How it is built",
        paragraphs: [
          "Uploads are checked by their bytes, not their names; images are converted to WebP and stripped of location data; videos get a poster frame; every file is served with ranges and caching headers, so players can seek a clip and browsers keep what they fetched.",
          "The API answers in the shapes LB Phone, screenshot-basic, fmsdk and NPWD already read, so a script needs a URL and a key, not a rewrite.",
        ],
      },
      {
        heading: "Contact",
        paragraphs: ["Questions about an account or a file: use the e-mail address your receipts and account e-mails come from."],
      },
    ],
  },
  terms: {
    path: "/terms",
    title: "Terms of Service",
    description: "The rules for using {app}: your account, your content, plans and payments, and what we may do when the rules are broken.",
    updated: "2026-11-26",
    sections: [
      {
        heading: "Your account",
        paragraphs: [
          "You need an account to create servers and API keys. Keep your password and API keys secret: anything done with them counts as done by you. Regenerate a key at once if it leaks.",
        ],
      },
      {
        heading: "Your content",
        paragraphs: [
          "You keep every right to what you upload. You give {app} the permission it needs to store, convert (for example to WebP), scan and serve it to whoever holds its link.",
          "Do not upload anything illegal, malware, content you have no right to share, or real people's personal data without their consent. Files are scanned for malware when the operator enables it, and infected files are refused.",
        ],
      },
      {
        heading: "Plans, storage and retention",
        paragraphs: [
          "Each plan has a storage quota. An upload that would pass it is refused; nothing is deleted to make room. On the free plan files are kept for 30 days after upload; paid plans keep files until you delete them or a retention rule you set removes them.",
          "Paid plans renew monthly through Stripe until cancelled; extra storage lasts until the end of the billing cycle it was bought in.",
        ],
      },
      {
        heading: "Ending the service",
        paragraphs: [
          "You may delete your files, servers and keys at any time. We may suspend an account that breaks these terms or endangers the service, and will say why by e-mail where the law allows.",
        ],
      },
      {
        heading: "No warranty",
        paragraphs: [
          "We work to keep files safe and links fast, but the service is provided as is: keep your own copy of anything you cannot afford to lose. Our liability is limited to what you paid in the last twelve months.",
        ],
      },
    ],
  },
  privacy: {
    path: "/privacy",
    title: "Privacy Policy",
    description: "What {app} stores about you and your players, why, for how long, and who else sees it.",
    updated: "2026-11-26",
    sections: [
      {
        heading: "What we store",
        paragraphs: [
          "Your account: e-mail address, display name, a salted hash of your password (never the password), and the Discord id and username if you link Discord.",
          "Signed-in devices: a hash of each session token with the address and browser that signed in, so you can see and sign out devices in Settings. Sessions end after 30 days without use.",
          "Your files and the fields your scripts send with them (category, player name and identifier, metadata). Unless a server owner turns it off, location data and other embedded metadata (EXIF GPS, recording tags, PDF author fields) are removed on upload.",
          "API calls: which key called, when, from which address and with what result, so you can see usage per key and we can stop abuse.",
        ],
      },
      {
        heading: "How long",
        paragraphs: [
          "Files stay until you delete them, a retention rule removes them, or the free plan's 30 days pass. Deleting a server or an account deletes its files and keys.",
        ],
      },
      {
        heading: "Who else sees it",
        paragraphs: [
          "Anyone with a public file's link can open that file; private files need your session or a signed link. Payments are handled by Stripe, which receives your e-mail address; account e-mails go through the operator's mail provider. Nothing is sold or shared for advertising.",
        ],
      },
      {
        heading: "Cookies",
        paragraphs: [
          "One cookie keeps you signed in and one carries a notification to the next page; the theme you pick is kept in your browser. There are no tracking or advertising cookies.",
        ],
      },
      {
        heading: "Your rights",
        paragraphs: [
          "You can see and change your profile in Settings, download your files, and delete them at any time. Ask us for a copy or the deletion of anything else we hold about you.",
        ],
      },
    ],
  },
};

/** A page's text for this instance. */
export function withAppName(text: string, appName: string): string {
  return text.replaceAll("{app}", appName);
}
