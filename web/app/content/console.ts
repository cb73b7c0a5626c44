/**
 * Copy of the staff console at /admin (app/admin): sign-in, the two-step
 * check, the account page, the inbox, the waitlist, the subscribers and the files
 * (the analytics screen's is in console-analytics.ts).
 */
import { studio } from "./site";

const studioName = studio.name;

export const consoleMeta = {
  title: "Staff console",
  description: "The studio's staff console: contact messages, waitlists, newsletter subscribers and analytics.",
  path: "/admin",
} as const;

/**
 * consoleTitle is the document title of a console screen (WCAG 2.4.2): the
 * screen, then the console, then the studio, e.g. "Inbox | Staff console |
 * Meridian Studio". Without a screen (while the console starts) it is the
 * console's own.
 */
export const consoleTitle = (screen?: string) => [screen, consoleMeta.title, studioName].filter(Boolean).join(" | ");

export const consoleShell = {
  name: "Staff console",
  loading: "Loading the console…",
  noScript: "The staff console needs JavaScript. Turn it on and reload the page.",
  skip: "Skip to content",
  navLabel: "Console",
  menu: "Menu",
  closeMenu: "Close menu",
  backToSite: "Back to the site",
  notFound: { title: "No such screen", text: "The console has no page at this address. Pick a screen from the menu above." },
  configProblem: {
    title: "The console cannot start",
    text: "Its settings could not be loaded from the server. Check that the server is running, then try again.",
  },
} as const;

export const consoleNav = [
  { screen: "inbox", label: "Inbox", path: "/admin/inbox" },
  { screen: "waitlist", label: "Waitlist", path: "/admin/waitlist" },
  { screen: "subscribers", label: "Subscribers", path: "/admin/subscribers" },
  { screen: "analytics", label: "Analytics", path: "/admin/analytics" },
  { screen: "files", label: "Files", path: "/admin/files" },
  { screen: "account", label: "Account", path: "/admin/account" },
] as const;

export const openCountLabel = (n: number) => (n === 1 ? "1 open message" : `${n} open messages`);

export const signInCopy = {
  title: "Sign in to the staff console",
  /** The sign-in screen's name in the document title. */
  documentTitle: "Sign in",
  intro: "Enter your work e-mail address. We will mail you a 6-digit code.",
  emailLabel: "E-mail address",
  send: "Send code",
  sending: "Sending…",
  checkMail: {
    title: "Check your mail",
    text: (email: string) => `If ${email} belongs to a member of staff, a 6-digit code is on its way. It works once, for 10 minutes. You can also open the link in the mail on this device.`,
  },
  codeLabel: "6-digit code",
  verify: "Sign in",
  verifying: "Signing in…",
  otherAddress: "Use another address",
  resend: "Send a new code",
  resent: "A new code is on its way.",
  recentlySent: "A code was mailed to this address less than a minute ago: use that one, or wait a minute and send a new one.",
  linkSigningIn: "Signing you in with the link from your mail…",
  providerSigningIn: "Finishing your sign-in…",
  or: "or",
  withProvider: (name: string) => `Sign in with ${name}`,
  redirecting: "Taking you to your sign-in page…",
  sso: {
    start: "Single sign-on",
    title: "Single sign-on",
    intro: "Enter your work e-mail address. We will take you to your organisation's sign-in page.",
    submit: "Continue",
    back: "Sign in with an e-mail code instead",
    notFound: "No single sign-on is set up for that address's domain. Sign in with an e-mail code instead.",
  },
  expired: "Your session has ended. Sign in again to go on.",
  captcha: {
    loading: "Loading the check that you are a person…",
    missing: "Complete the check that you are a person first.",
    failed: "The check that you are a person could not load, so no code can be sent. Reload the page to try again.",
    refused: "The check was not accepted or has expired. Complete it again, then try again.",
  },
  confirmLink: {
    title: "Confirm your sign-in",
    text: "Complete the check that you are a person, then sign in with the link from your mail.",
    submit: "Sign in",
    other: "Sign in another way",
  },
  errors: {
    email: "Enter a valid e-mail address.",
    code: "Enter the 6 digits from the mail.",
    wrongCode: "That code is wrong or has expired. Check the mail, or send a new code.",
    tooMany: "Too many tries. Wait a minute, then send a new code.",
    badLink: "That link is used up or has expired. Send yourself a new code.",
    provider: (why: string) => `Signing in through your provider did not work: ${why}`,
    providerCode: "That sign-in has expired or was already used. Start it again.",
    network: "The server cannot be reached. Check your connection and try again.",
    unavailable: "Signing in is not possible right now. Try again in a moment.",
  },
} as const;

export const mfaCopy = {
  title: "Two-step check",
  intro: "Enter the 6-digit code from your authenticator app.",
  codeLabel: "Authenticator code",
  verify: "Verify",
  verifying: "Verifying…",
  wrongCode: "That code is not right. Codes change every 30 seconds: try the current one.",
  noFactor: "No authenticator is set up for this account.",
  signOut: "Sign out",
  /** A code of the wrong length: the field wants 6 digits. */
  codeLength: "Enter the 6 digits from your authenticator app.",
  enrolFirst: {
    title: "Set up two-step sign-in first",
    text: "This studio requires an authenticator app for staff. Set one up to see the console's data.",
    orPasskey: "Or add a passkey instead: this device, your phone or a security key confirms it is you.",
  },
  passkey: {
    intro: "Confirm it is you with your passkey.",
    use: (name: string | undefined) => (name ? `Use passkey “${name}”` : "Use your passkey"),
    waiting: "Waiting for your passkey…",
    orCode: "Or enter the 6-digit code from your authenticator app.",
  },
} as const;

/** Copy of passkeys (WebAuthn): adding one on the account page, and the errors of both ceremonies. */
export const passkeyCopy = {
  title: "Passkeys",
  intro:
    "A passkey is kept by this device, your phone or a security key, and only this site can ask for it: no code to type, and nothing a look-alike site could reuse. It is the safest second step.",
  none: "No passkey is set up.",
  nameLabel: "Name of the new passkey",
  nameHint: "For example “Work laptop” or “Blue security key”, to tell your passkeys apart.",
  add: "Add a passkey",
  adding: "Waiting for your passkey…",
  added: "The passkey was added. Two-step sign-in is on.",
  factorName: (name: string | undefined) => name || "Passkey",
  remove: "Remove",
  removeLabel: (name: string | undefined) => `Remove passkey ${name || ""}`.trim(),
  removeConfirm: "Remove this passkey? Sign-in will no longer ask for it.",
  removed: "The passkey was removed.",
  errors: {
    name: "Give the passkey a name.",
    nameTaken: "One of your passkeys or authenticators has this name already: choose another.",
    cancelled: "No passkey was used: the request was cancelled or timed out. Try again, and follow what your device asks.",
    exists: "This device holds a passkey for your account already.",
    unsupported: "This browser cannot use passkeys. Use a recent Chrome, Edge, Firefox or Safari.",
    refused: "The passkey was refused. Try again, or use another of your passkeys.",
    needsAal2: "Confirm it is you with your passkey or authenticator first (sign out and in again) to change your passkeys.",
  },
} as const;

export const accountCopy = {
  title: "Account",
  signedInAs: "Signed in as",
  /** How the session began (an e-mail code, an identity provider, single sign-on), and whether an authenticator confirmed it. */
  sessionLevel: (first: "code" | "provider" | "sso", aal2: boolean) =>
    `Signed in ${{ code: "with an e-mail code", provider: "through an identity provider", sso: "with single sign-on" }[first]}${aal2 ? " and an authenticator" : ""}`,
  identities: {
    title: "Sign-in methods",
    intro: "The ways you can sign in to the console. A code mailed to your address always works.",
    email: "E-mail code",
    sso: "Single sign-on",
    linked: (when: string) => `Linked ${when}`,
    link: (name: string) => `Link ${name}`,
    linkFailed: (why: string) => `Linking did not work: ${why}`,
    linking: "Taking you to the provider…",
    unlink: "Unlink",
    unlinkConfirm: "Unlink this sign-in method? You can link it again later.",
    unlinked: "Sign-in method unlinked",
    needsAal2: "Verify your authenticator code first (sign out and in again), then unlink.",
  },
  mfa: {
    title: "Two-step sign-in",
    intro: "After the e-mail code, ask for a code from an authenticator app (TOTP) as well.",
    none: "No authenticator is set up.",
    factorName: (name: string | undefined) => name || "Authenticator app",
    added: (when: string) => `Added ${when}`,
    start: "Set up an authenticator",
    scan: "Scan this QR code with your authenticator app, or type the key below into it.",
    qrAlt: "QR code of the authenticator key",
    secretLabel: "Key",
    copySecret: "Copy key",
    secretCopied: "Key copied",
    codeLabel: "Code from the app",
    confirm: "Confirm",
    confirming: "Confirming…",
    cancel: "Cancel",
    enrolled: "Two-step sign-in is on.",
    remove: "Remove",
    removeConfirm: "Remove this authenticator? Sign-in will need only the e-mail code.",
    removed: "The authenticator was removed.",
    needsAal2: "Verify with your authenticator first (sign out and in again) to remove it.",
  },
  signOut: {
    title: "Sign out",
    here: "Sign out on this device",
    everywhere: "Sign out everywhere",
    everywhereHint: "Ends every session of yours, on every device and browser.",
  },
} as const;

export type InboxFilter = "open" | "handled" | "spam" | "all";

export const inboxCopy = {
  title: "Inbox",
  searchLabel: "Search messages",
  searchPlaceholder: "Name, e-mail, company or message",
  filters: { open: "Open", handled: "Handled", spam: "Spam", all: "All" } satisfies Record<InboxFilter, string>,
  filterLabel: "Show",
  empty: {
    open: { title: "No open messages", text: "Everything is answered. New messages show up here as they arrive." },
    handled: { title: "No handled messages", text: "Messages you mark as handled show up here." },
    spam: { title: "No spam", text: "Submissions caught by the form's hidden field, or marked as spam, show up here." },
    all: { title: "No messages yet", text: "Messages sent from the contact page show up here as they arrive." },
    search: (q: string) => ({ title: `No messages match “${q}”`, text: "Try another word, or clear the search." }),
  },
  newMessage: (name: string) => `New message from ${name}`,
  status: { open: "Open", handled: "Handled", spam: "Spam" },
  noCompany: "—",
} as const;

export const messageCopy = {
  back: "Back to the inbox",
  fields: { name: "Name", email: "E-mail", company: "Company", phone: "Phone", received: "Received", status: "Status", message: "Message", id: "Id" },
  none: "Not given",
  handledBy: (who: string, when: string) => `Handled by ${who}, ${when}`,
  actions: {
    handle: "Mark handled",
    reopen: "Reopen",
    spam: "Mark as spam",
    notSpam: "Not spam",
    reply: "Reply",
    copyEmail: "Copy e-mail",
  },
  done: {
    handle: "Marked as handled",
    reopen: "Reopened",
    spam: "Moved to spam",
    notSpam: "Moved out of spam",
    copied: "E-mail address copied",
  },
  replySubject: "Re: your message to Meridian Studio",
  /** A message's name in the document title: who sent it. */
  documentTitle: (sender: string) => `Message from ${sender}`,
  /** The document title while the message loads. */
  loadingTitle: "Message",
  notFound: { title: "Message not found", text: "It may have been removed, or the link is wrong." },
  copyFailed: "The address could not be copied. Select it and copy it by hand.",
} as const;

export const waitlistCopy = {
  title: "Waitlist",
  countsLabel: "Sign-ups per product",
  people: (n: number) => (n === 1 ? "1 person" : `${n} people`),
  searchLabel: "Search the waitlist",
  searchPlaceholder: "E-mail address",
  filterLabel: "Product",
  all: "All products",
  columns: { email: "E-mail", product: "Product", joined: "Joined" },
  empty: { title: "No one on the waitlist yet", text: "Sign-ups from the coming-soon product pages show up here." },
  noMatch: (q: string) => ({ title: `No sign-ups match “${q}”`, text: "Try another address, or clear the search." }),
} as const;

export const subscribersCopy = {
  title: "Subscribers",
  searchLabel: "Search subscribers",
  searchPlaceholder: "E-mail address",
  columns: { email: "E-mail", subscribed: "Subscribed" },
  empty: { title: "No subscribers yet", text: "Newsletter sign-ups from the resources pages show up here." },
  noMatch: (q: string) => ({ title: `No subscribers match “${q}”`, text: "Try another address, or clear the search." }),
} as const;

export const filesCopy = {
  title: "Files",
  /** The document title of the bucket list, or of a bucket's folder: its path first. */
  documentTitle: (bucket?: string, prefix = "") => (bucket ? `${[bucket, prefix].filter(Boolean).join("/")} – Files` : "Files"),
  bucketsLabel: "Buckets",
  breadcrumbsLabel: "Folder",
  public: "Public",
  private: "Private",
  publicHint: "Anyone with the link can download its files.",
  privateHint: "Only staff can open its files; share them with a signed link.",
  sizeLimit: (size: string) => `Up to ${size} a file`,
  types: (types: string) => `Only ${types}`,
  noBuckets: { title: "No buckets yet", text: "Buckets are made with supabase-js or the CLI; the site's templates are in downloads." },
  empty: { title: "This folder is empty", text: "Drop files here, or use Upload." },
  columns: { name: "Name", size: "Size", type: "Type", modified: "Modified", downloads: "Downloads" },
  folder: "Folder",
  truncated: (n: number) => `Showing the first ${n.toLocaleString("en")} entries of this folder.`,
  open: (name: string) => `Details of ${name}`,
  upload: "Upload files",
  dropHere: (where: string) => `Drop files here to upload them to ${where}`,
  dropNow: "Drop to upload",
  uploads: "Uploads",
  uploading: (pct: number) => `Uploading… ${pct}%`,
  uploaded: "Uploaded",
  uploadFailed: "Not uploaded",
  progressLabel: (name: string) => `Upload of ${name}`,
  replaceExisting: "Replace the existing file",
  dismiss: "Dismiss",
  cancel: "Cancel",
  close: "Close",
  details: {
    path: "Path",
    size: "Size",
    type: "Type",
    modified: "Modified",
    downloads: "Downloads",
    preview: (name: string) => `Preview of ${name}`,
    previewFailed: "The preview could not be loaded.",
  },
  replace: "Replace…",
  replaced: (name: string) => `Replaced ${name}`,
  move: {
    title: "Rename or move",
    label: "New path in the bucket",
    hint: "Use / for folders, e.g. archive/2026/report.pdf.",
    submit: "Rename or move",
    busy: "Moving…",
    done: (to: string) => `Moved to ${to}`,
  },
  remove: {
    action: "Delete",
    busy: "Deleting…",
    confirm: (name: string) => `Delete ${name}? It cannot be brought back, and its links stop working.`,
    done: (name: string) => `Deleted ${name}`,
  },
  links: {
    title: "Share",
    publicLabel: "Public link",
    signedLabel: "Signed link",
    expiryLabel: "Valid for",
    expiries: [
      { seconds: 3600, label: "1 hour" },
      { seconds: 86400, label: "1 day" },
      { seconds: 604800, label: "7 days" },
    ],
    create: "Create signed link",
    creating: "Creating…",
    copy: "Copy",
    copied: "Link copied",
    copyFailed: "The link could not be copied. Select it and copy it by hand.",
    expires: (when: string) => `Works until ${when}.`,
  },
  pathProblems: {
    empty: "Enter a name.",
    dots: "A name cannot have . or .. as a part.",
    emptySegment: "A path cannot start or end with /, or have // in it.",
    control: "A name cannot have control characters (tabs, line breaks).",
    tooLong: "The path is longer than 1,024 bytes.",
  },
  /** What storage/v1's refusals mean, before its own words. */
  refusals: {
    exists: "A file with this name already exists.",
    tooLarge: "The file is larger than this bucket allows.",
    typeNotAllowed: "This bucket does not take files of this type.",
    notFound: "The file or bucket is no longer there.",
    invalidName: "The name is not allowed.",
  },
  serverSaid: (message: string) => `The server said: ${message}`,
} as const;

export const listCopy = {
  clearSearch: "Clear search",
  export: "Export CSV",
  exporting: "Exporting…",
  exported: (file: string) => `Saved ${file}`,
  loading: "Loading…",
  retry: "Try again",
  previous: "Previous page",
  next: "Next page",
  pageOf: (page: number, pages: number) => `Page ${page} of ${pages}`,
  range: (from: number, to: number, total: number) => (total === 0 ? "0 results" : `${from}–${to} of ${total}`),
  /** What the list's live region says after each search, filter or page: the count, the search, and the rows shown when not all are. */
  status: (from: number, to: number, total: number, q: string) =>
    `${total === 1 ? "1 result" : `${total} results`}${q ? ` for “${q}”` : ""}${to - from + 1 < total ? `, showing ${from}–${to}` : ""}`,
  /** What the live region says when the list is empty: the empty state's title and text. */
  emptyStatus: (empty: { title: string; text: string }) => `${empty.title}. ${empty.text}`,
  live: "Live",
  connecting: "Connecting…",
  liveOff: "Not live",
  liveOffHint: "New entries show after a reload.",
  livePaused: "Live updates paused",
  livePausedHint: "New entries may be missing for now; what is shown reloads when live updates resume.",
} as const;

export const problemCopy = {
  unavailable: { title: "The store cannot be reached", text: "The server answered but could not read its data. Try again in a moment." },
  network: { title: "The server cannot be reached", text: "Check your connection, then try again." },
  other: { title: "Something went wrong", text: "The server refused the request." },
  actionFailed: "Error",
} as const;
