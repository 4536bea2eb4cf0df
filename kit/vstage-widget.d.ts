//! TypeScript declarations of `<vstage-widget>`, the element `/embed.js` defines: its attributes and properties,
//! and every `vstage-*` event with its `detail`, registered for plain DOM (`document.createElement`,
//! `querySelector`, `addEventListener`). React 19 and Vue 3 hosts add `vstage-widget-react.d.ts` or
//! `vstage-widget-vue.d.ts`, which import this file. The details are vstage_api::host_events' types as JSON; a test
//! type-checks a full sample of each, serialized from those types, against these declarations.

/** The screens an element can start on (`view`); the `classic*` ones need `show="classic"`. */
export type VstageView =
  | "renders"
  | "new-render"
  | "board"
  | "render"
  | "remove-furniture"
  | "account"
  | "classic"
  | "classic-new"
  | "classic-render";

/** The studio's languages; a region such as `de-AT` is read as `de`. */
export type VstageLanguage = "en" | "de" | "es" | "fr" | (string & {});

/** The listing's disclosure rules for "Use in listing". */
export type VstageDisclosureProfile =
  | "ab723"
  | "crmls"
  | "smart-mls"
  | "mls-now"
  | "stellar"
  | "realtracs"
  | "rmls"
  | "maar"
  | "none";

/** What a variation is. The service may add kinds: other strings can come. */
export type VstageVariationType = "staging" | "removal" | "daytodusk" | "enhancement" | (string & {});

/** Where the listing shows the disclosure, as the profile asks. */
export type VstagePlacement =
  | "next-to-altered-photo"
  | "original-first"
  | "on-photo"
  | "in-description"
  | "in-remarks"
  | "none";

/** The two kinds of an agent's allowance. */
export type VstageUsageKind = "staging" | "image-editing";

/** The attributes, as written in HTML (each but `hide` and `show` is also a property: see `VstageWidgetElement`). */
export interface VstageWidgetAttributes {
  /** The server's `/api`; default: the origin of `embed.js` plus `/api`. */
  "api-base"?: string;
  /** The widget token your backend signs (docs/embedding.md, "Tokens"). */
  token?: string;
  view?: VstageView;
  /** The render shown with `view="render"` (v2) or `view="classic-render"` (v1). */
  "render-id"?: string;
  /** The photo the new-render form starts with. */
  "photo-url"?: string;
  lang?: VstageLanguage;
  disclosure?: VstageDisclosureProfile;
  /** Your references, kept with each render made here and sent back in every event and webhook about it: your
   * listing's id, the id of `photo-url`'s photo, and a flat JSON object of your own (at most 50 keys of 40
   * characters, strings of at most 500 characters, numbers or booleans). */
  "listing-id"?: string;
  "photo-id"?: string;
  metadata?: string;
  /** Parts your agents do not see, space-separated: `account`, `usage`, `board`, `classic`. */
  hide?: string;
  /** Parts shown only when asked: `classic`. */
  show?: string;
  /** `address`: follow the page's address (the standalone page); without it the studio moves in memory. Read
   * when the element joins the page. */
  routing?: "address";
}

/** One image of a result: the full one, the one for the web, the one for lists. */
export interface VstageResultImage {
  url: string;
  optimized_url: string | null;
  thumbnail_url: string | null;
}

/** A variation's result: one image, or one per view for a multi-view render. */
export type VstageVariationResult = VstageResultImage | VstageResultImage[];

/** The chosen photo's fields of the RESO Data Dictionary 2.1 Media resource, as RESO names and values them. */
export interface VstageResoMedia {
  /** Values of RESO's `MediaAlteration` lookup. */
  MediaAlteration: Array<
    | "VirtualStagingItemAddition"
    | "DeclutteredItemRemoved"
    | "TwilightConversion"
    | "VirtualEnhancements"
    | "OtherMediaModification"
  >;
  /** At most 1,024 characters: the disclosure, for the photo's description. */
  LongDescription: string;
}

/** Your references, as a render keeps them: `null` where not given. */
export interface VstageHostReference {
  listing_id: string | null;
  photo_id: string | null;
  metadata: Record<string, string | number | boolean> | null;
}

/** `vstage-ready`: mounted, and its server answered. */
export interface VstageReadyDetail {
  api_base: string;
}

/** `vstage-render-created`. */
export interface VstageRenderCreatedDetail extends VstageHostReference {
  render_id: string;
}

/** `vstage-variation-done`: a variation the studio is showing finished. */
export interface VstageVariationDoneDetail extends VstageHostReference {
  render_id: string;
  variation_id: string;
  variation_type: VstageVariationType | null;
  result: VstageVariationResult | null;
}

/**
 * `vstage-result-chosen`: "Use in listing" on a finished variation. The addresses are the copies `vstage serve`
 * keeps, at signed links a listing shows as they are. The `result.chosen` webhook carries the same fields.
 */
export interface VstageResultChosenDetail extends VstageHostReference {
  /** Who chose it, and when (RFC 3339), from the server's record; `null` when no record could be made. */
  subject: string | null;
  chosen_at: string | null;
  render_id: string;
  variation_id: string;
  variation_type: VstageVariationType | null;
  /** Which image of the result: 0, or the view of a multi-view result. */
  image_index: number;
  url: string;
  optimized_url: string | null;
  thumbnail_url: string | null;
  /** The photo as taken, which the disclosure points to (once recorded, the server's kept copy of it). */
  original_url: string | null;
  /**
   * The listing's photo this result takes the place of: the address the render was made from, as the studio was
   * given it (`photo-url`, a sample's, an upload's). Show the result in its place, or right after it where
   * `placement` is `"original-first"`; a later choice for the same photo replaces this one.
   */
  replaces: string | null;
  /** Whether furniture or decor was added; every kind is a digital alteration. */
  virtually_staged: boolean;
  /** A caption for the photo: what was altered and where the original is. */
  disclosure: string;
  disclosure_id: string | null;
  profile: VstageDisclosureProfile | null;
  statement: string | null;
  /** The statement without its link, and the words of the link to `disclosure_url`. */
  statement_words: string | null;
  link_words: string | null;
  description_text: string | null;
  remarks_sentence: string | null;
  /** The sentence for the remarks only agents read (RESO's `PrivateRemarks`). */
  private_remarks_sentence: string | null;
  disclosure_url: string | null;
  qr_svg_url: string | null;
  qr_png_url: string | null;
  placement: VstagePlacement | null;
  /** Whether `url`'s photo carries a visible label saying it was altered. */
  watermarked: boolean;
  /** Whether the law lets this result go without a statement. */
  exempt: boolean;
  /** `MediaAlteration` and `LongDescription` for an MLS feed; `null` when no record could be made. */
  reso: VstageResoMedia | null;
  /** What was done, in the listing's language, and that language, from the record. */
  processing: string | null;
  lang: string | null;
}

/** `vstage-token-expired`: the server refused the token; calls wait until a new `token` is set. */
export interface VstageTokenExpiredDetail {
  message: string;
}

/** `vstage-allowance-low` (80 % used) and `vstage-allowance-spent` (all of it). */
export interface VstageAllowanceDetail {
  kind: VstageUsageKind;
  used: number;
  limit: number;
  /** When it renews, in epoch milliseconds. */
  renews_at: number;
}

/** `vstage-error`: a wrong attribute, an unreachable server, or a crash. */
export interface VstageErrorDetail {
  message: string;
}

/** Every event the element sends (bubbling and composed `CustomEvent`s), by name. */
export interface VstageWidgetEventMap {
  "vstage-ready": CustomEvent<VstageReadyDetail>;
  "vstage-render-created": CustomEvent<VstageRenderCreatedDetail>;
  "vstage-variation-done": CustomEvent<VstageVariationDoneDetail>;
  "vstage-result-chosen": CustomEvent<VstageResultChosenDetail>;
  "vstage-token-expired": CustomEvent<VstageTokenExpiredDetail>;
  "vstage-allowance-low": CustomEvent<VstageAllowanceDetail>;
  "vstage-allowance-spent": CustomEvent<VstageAllowanceDetail>;
  "vstage-error": CustomEvent<VstageErrorDetail>;
}

/**
 * The element. Each property mirrors its attribute (`null` when absent) and applies at once; setting `null` or
 * `undefined` removes the attribute.
 */
export interface VstageWidgetElement extends HTMLElement {
  apiBase: string | null;
  token: string | null;
  view: VstageView | null;
  renderId: string | null;
  photoUrl: string | null;
  /** The studio's language (shadows `HTMLElement.lang` with the attribute's value). */
  lang: string;
  routing: "address" | null;
  disclosure: VstageDisclosureProfile | null;
  listingId: string | null;
  photoId: string | null;
  /** The JSON of the object (an object set from JavaScript is written as its JSON). */
  metadata: string | null;
  addEventListener<K extends keyof VstageWidgetEventMap>(
    type: K,
    listener: (this: VstageWidgetElement, event: VstageWidgetEventMap[K]) => unknown,
    options?: boolean | AddEventListenerOptions,
  ): void;
  addEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | AddEventListenerOptions,
  ): void;
  removeEventListener<K extends keyof VstageWidgetEventMap>(
    type: K,
    listener: (this: VstageWidgetElement, event: VstageWidgetEventMap[K]) => unknown,
    options?: boolean | EventListenerOptions,
  ): void;
  removeEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | EventListenerOptions,
  ): void;
}

declare global {
  interface HTMLElementTagNameMap {
    "vstage-widget": VstageWidgetElement;
  }
  /** The events bubble and are composed: a listener on `document` hears them too. */
  interface DocumentEventMap extends VstageWidgetEventMap {}
}
