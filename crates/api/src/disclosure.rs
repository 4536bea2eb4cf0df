//! Disclosure of altered listing photos: the profile a listing follows (California's AB 723, an MLS's rules), the
//! request that records a chosen result (`POST /api/disclosures`) and the record the server answers with, which
//! carries everything the listing shows beside the photo.

use serde::{Deserialize, Serialize};

use crate::host_reference::HostReference;
use crate::vocabulary::VariationType;

/// The rules a listing's disclosure follows: the `<vstage-widget disclosure>` attribute, else the server's
/// default. What each asks for is the server's table (`crates/server/src/disclosure/profiles.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DisclosureProfile {
    /// California's AB 723: a statement on or next to the photo and a link or QR code to the original.
    Ab723,
    /// California Regional MLS: AB 723, the original right before the altered photo, the words in its description.
    Crmls,
    /// Smart MLS: a watermark on the altered photo.
    SmartMls,
    /// MLS Now: nothing on the photo; the statement goes into the description.
    MlsNow,
    /// Stellar MLS: the public remarks begin with a sentence saying photos were virtually staged.
    Stellar,
    /// RealTracs (Tennessee): the photo's media remarks say it was virtually staged, the photo as it is right
    /// before it, and nothing drawn over it.
    Realtracs,
    /// RMLS (Portland, Oregon): a "Virtually Staged" watermark on the photo, nothing else added to it.
    Rmls,
    /// MAAR's MLS (Omaha, Nebraska): the agents' REALTOR® Remarks say photos were virtually staged; exteriors are
    /// never virtually staged.
    Maar,
    /// No disclosure beyond the record (the host takes care of it).
    None,
}

impl DisclosureProfile {
    pub const ALL: [DisclosureProfile; 9] = [
        DisclosureProfile::Ab723,
        DisclosureProfile::Crmls,
        DisclosureProfile::SmartMls,
        DisclosureProfile::MlsNow,
        DisclosureProfile::Stellar,
        DisclosureProfile::Realtracs,
        DisclosureProfile::Rmls,
        DisclosureProfile::Maar,
        DisclosureProfile::None,
    ];

    /// The attribute's spelling (`smart-mls`).
    pub fn as_str(self) -> &'static str {
        match self {
            DisclosureProfile::Ab723 => "ab723",
            DisclosureProfile::Crmls => "crmls",
            DisclosureProfile::SmartMls => "smart-mls",
            DisclosureProfile::MlsNow => "mls-now",
            DisclosureProfile::Stellar => "stellar",
            DisclosureProfile::Realtracs => "realtracs",
            DisclosureProfile::Rmls => "rmls",
            DisclosureProfile::Maar => "maar",
            DisclosureProfile::None => "none",
        }
    }

    /// The law's or MLS's own name, for a sentence ("MAAR").
    pub fn name(self) -> &'static str {
        match self {
            DisclosureProfile::Ab723 => "California AB 723",
            DisclosureProfile::Crmls => "CRMLS",
            DisclosureProfile::SmartMls => "Smart MLS",
            DisclosureProfile::MlsNow => "MLS Now",
            DisclosureProfile::Stellar => "Stellar MLS",
            DisclosureProfile::Realtracs => "RealTracs",
            DisclosureProfile::Rmls => "RMLS",
            DisclosureProfile::Maar => "MAAR",
            DisclosureProfile::None => "none",
        }
    }

    /// Whether the profile's rule lets a photo of the outside be virtually staged: MAAR's does not ("No photos of
    /// the exterior of the property shall be virtually staged", quoted in the server's table of profiles). The
    /// studio says so before a staging of the `outdoor` room type is sent; the server refuses to record one.
    pub fn allows_staged_exteriors(self) -> bool {
        self != DisclosureProfile::Maar
    }

    /// Whether the profile's rule asks for a mark on the photo itself: Smart MLS's stamp or watermark, RMLS's
    /// "Virtually Staged" watermark (the server's table of profiles quotes both, and draws its own label on the
    /// copy it keeps for them). The studio's forms then ask the service for its "Virtually Staged" mark by
    /// default; elsewhere it starts off, since MLS Now and RealTracs forbid anything on the photo.
    pub fn asks_for_a_mark(self) -> bool {
        matches!(self, DisclosureProfile::SmartMls | DisclosureProfile::Rmls)
    }

    /// The profile an attribute or option names (case and spaces aside); `None` for a name that is not one.
    pub fn parse(name: &str) -> Option<Self> {
        let name = name.trim().to_ascii_lowercase();
        Self::ALL.into_iter().find(|profile| profile.as_str() == name)
    }
}

/// Where the listing shows the disclosure, as the profile asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Placement {
    /// The statement (and link or QR code) on or right next to the altered photo.
    NextToAlteredPhoto,
    /// The original photo immediately before the altered one, the statement next to it.
    OriginalFirst,
    /// The statement is a label drawn into the photo (`url` is that labelled copy).
    OnPhoto,
    /// Nothing on or over the photo: the statement goes into the photo's description.
    InDescription,
    /// Nothing on or over the photo, nor in its description: the listing's remarks say it.
    InRemarks,
    /// Nothing is asked for.
    None,
}

/// How a v1 render's output is named where a variation id goes (v1 results have no ids): `v1-output-{n}`, its
/// place among the render's outputs.
pub fn v1_output_id(output: u32) -> String {
    format!("v1-output-{output}")
}

/// The output a `v1-output-{n}` name stands for; `None` for a variation's own id.
pub fn v1_output_index(variation_id: &str) -> Option<u32> {
    variation_id.strip_prefix("v1-output-")?.parse().ok()
}

/// `POST /api/disclosures`: image `image_index` of a finished variation (or a v1 render's output, named as
/// [`v1_output_id`] names it), chosen for a listing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiscloseRequest {
    pub render_id: String,
    pub variation_id: String,
    #[serde(default)]
    pub image_index: u32,
    /// The listing's profile; the server's default when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<DisclosureProfile>,
    /// The listing's language (`en`, `de`, `es`, `fr`; a region is ignored, anything else is English).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lang: Option<String>,
    /// The photo as taken, for a service that does not say which photo a render was made from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub original_url: Option<String>,
}

/// The chosen photo's fields of the RESO Data Dictionary 2.1 Media resource, named and valued as RESO publishes
/// them, so that an MLS feed takes them as they are.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResoMedia {
    /// `MediaAlteration`, values of its lookup: `VirtualStagingItemAddition`, `DeclutteredItemRemoved`,
    /// `TwilightConversion`, `VirtualEnhancements` or `OtherMediaModification`.
    #[serde(rename = "MediaAlteration")]
    pub media_alteration: Vec<String>,
    /// `LongDescription` (at most 1,024 characters): the disclosure, for the photo's description.
    #[serde(rename = "LongDescription")]
    pub long_description: String,
}

/// A chosen result's disclosure: the record `vstage serve` keeps, and what the listing shows. Every address is
/// this server's, signed, and lives as long as the kept result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Disclosure {
    pub id: String,
    /// When the result was chosen (ms since the epoch).
    pub created_at: i64,
    /// The same instant in RFC 3339 (UTC, milliseconds), as every host webhook and DOM event writes times.
    #[serde(default)]
    pub chosen_at: String,
    /// Who chose it (the token's subject).
    pub subject: String,
    pub render_id: String,
    pub variation_id: String,
    pub image_index: u32,
    pub variation_type: Option<VariationType>,
    /// What was done, in the listing's language ("Furniture added in the modern style").
    pub processing: String,
    pub profile: DisclosureProfile,
    pub lang: String,
    /// Whether the law lets this result go without a statement (enhancement alone, under AB 723).
    pub exempt: bool,
    /// The photo to show: the kept copy, with the label drawn in when `watermarked`.
    pub url: String,
    /// The kept copies of the result for screens and for lists, when the service made them; `None` where `url`
    /// is a labelled copy (they carry no label, so the listing shows `url` alone).
    #[serde(default)]
    pub optimized_url: Option<String>,
    #[serde(default)]
    pub thumbnail_url: Option<String>,
    /// The photo as taken, kept by this server.
    pub original_url: String,
    /// The address the render was made from, as it was sent (the listing's `photo-url`, an upload's): the photo
    /// the result takes the place of in the listing.
    #[serde(default)]
    pub replaces: Option<String>,
    /// The words to show on or next to the photo; `None` where the profile asks for none.
    pub statement: Option<String>,
    /// The statement's words without its link ("Virtually staged."), for a host that shows the link as a link
    /// (`link_words` on `disclosure_url`) rather than as a written address.
    #[serde(default)]
    pub statement_words: Option<String>,
    /// The words of the link to the originals page ("Unaltered original photo"), when there is a link.
    #[serde(default)]
    pub link_words: Option<String>,
    /// The words for the photo's description field.
    pub description_text: Option<String>,
    /// The sentence the listing's public remarks begin with.
    pub remarks_sentence: Option<String>,
    /// The sentence for the listing's remarks only agents read (RESO's `PrivateRemarks`; MAAR's "REALTOR®
    /// Remarks").
    #[serde(default)]
    pub private_remarks_sentence: Option<String>,
    /// The public page with the original photo, what was changed and when.
    pub disclosure_url: Option<String>,
    pub qr_svg_url: Option<String>,
    pub qr_png_url: Option<String>,
    pub placement: Placement,
    /// Whether `url`'s photo carries a visible label saying it was altered.
    pub watermarked: bool,
    /// The same for an MLS feed, in RESO's terms.
    #[serde(default)]
    pub reso: ResoMedia,
    /// The host's references kept with the render (`listing_id`, `photo_id`, `metadata`).
    #[serde(flatten)]
    pub reference: HostReference,
}

/// `GET /api/disclosures`: a page of the subject's records, newest first (every subject's for the operator); the
/// next page with `?cursor=` `next_cursor`, none after the last.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DisclosureList {
    pub items: Vec<Disclosure>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profiles_are_named_as_the_attribute_spells_them() {
        for profile in DisclosureProfile::ALL {
            assert_eq!(DisclosureProfile::parse(profile.as_str()), Some(profile));
            assert_eq!(serde_json::to_value(profile).unwrap(), profile.as_str());
        }
        assert_eq!(DisclosureProfile::parse(" Smart-MLS "), Some(DisclosureProfile::SmartMls));
        assert_eq!(DisclosureProfile::parse("nar"), None);
        assert_eq!(serde_json::to_value(Placement::OriginalFirst).unwrap(), "original-first");
    }

    #[test]
    fn a_v1_output_is_named_by_its_place() {
        assert_eq!(v1_output_index(&v1_output_id(3)), Some(3));
        assert_eq!(v1_output_index("var_1"), None);
        assert_eq!(v1_output_index("v1-output-x"), None);
    }
}
