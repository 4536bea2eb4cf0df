//! What each disclosure profile asks of a listing photo: one row per law or MLS, each with its rule's source. A new
//! MLS is one more row here (and its name in `vstage_api::disclosure::DisclosureProfile`).

use vstage_api::disclosure::{DisclosureProfile, Placement};

/// Where a profile's rule is published, and its words there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuleSource {
    /// The law's section or the MLS's rule number.
    pub citation: &'static str,
    /// Its public address.
    pub address: &'static str,
    /// The words this row implements, quoted as published.
    pub words: &'static str,
}

/// One profile's rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rules {
    pub profile: DisclosureProfile,
    /// The rule, read at its source; `None` only for `none` (the host discloses in its own way).
    pub source: Option<RuleSource>,
    /// A statement on or next to the photo.
    pub statement: bool,
    /// A link to the public page with the original photo, and a QR code for it.
    pub link: bool,
    pub qr: bool,
    /// Words for the photo's description field.
    pub description: bool,
    /// A sentence the listing's public remarks begin with.
    pub remarks: bool,
    /// A sentence for the listing's remarks only agents read.
    pub private_remarks: bool,
    /// A label drawn into the photo (our kept copy), in the listing's language.
    pub watermark: bool,
    /// The label's words for a virtually staged photo where the rule prescribes them (RMLS's "Virtually Staged"),
    /// whatever the listing's language; `None`: the listing's own words.
    pub staged_label: Option<&'static str>,
    pub placement: Placement,
    /// Whether a photo only enhanced (light, colour, exposure) needs no statement or link, as the law says.
    pub enhancement_exempt: bool,
}

pub const PROFILES: [Rules; 9] = [
    // California AB 723, Business and Professions Code §10140.8 (in force 1 January 2026): an altered listing image
    // carries a reasonably conspicuous statement on or next to it and a link, URL or QR code to a publicly
    // accessible page where the original is clearly identified. Lighting, white balance, colour, sharpening,
    // straightening, cropping and exposure changes are exempt.
    Rules {
        profile: DisclosureProfile::Ab723,
        source: Some(RuleSource {
            citation: "California Business and Professions Code §10140.8(a)(1) (AB 723, in force 1 January 2026)",
            address: "https://leginfo.legislature.ca.gov/faces/codes_displaySection.xhtml?lawCode=BPC&sectionNum=10140.8",
            words: "A real estate broker or salesperson, or person acting on their behalf, who includes a digitally \
                    altered image in an advertisement or other promotional material for the sale of real property \
                    shall include in the advertisement or promotional material a statement disclosing that the image \
                    has been altered and a link to a publicly accessible internet website, URL, or QR code that \
                    includes, and clearly identifies, the original, unaltered image. The statement shall be \
                    reasonably conspicuous and located on or adjacent to the image and shall include language \
                    indicating that the unaltered images can be accessed on the linked internet website, URL, or QR \
                    code.",
        }),
        statement: true,
        link: true,
        qr: true,
        description: false,
        remarks: false,
        private_remarks: false,
        watermark: false,
        staged_label: None,
        placement: Placement::NextToAlteredPhoto,
        enhancement_exempt: true,
    },
    // CRMLS (California Regional MLS) rules on virtual staging: the original photo right before or after the altered
    // one, and "virtually staged", "digitally altered" or "digitally enhanced" in the photo's description; no
    // watermark needed. Its members are in California, so AB 723's statement and link apply as well.
    Rules {
        profile: DisclosureProfile::Crmls,
        source: Some(RuleSource {
            citation: "CRMLS Rule 11.5.2, as CRMLS's knowledge base gives it",
            address: "https://kb.crmls.org/?p=10900",
            words: "When adding a digitally enhanced image to the MLS, the original, unaltered version must appear in \
                    the listing immediately before or after the digitally enhanced image. Clearly label the digitally \
                    enhanced image in the photo description text field. Use terms such as \u{201c}digitally \
                    enhanced,\u{201d} \u{201c}digitally altered,\u{201d} or \u{201c}virtually staged,\u{201d} etc.",
        }),
        statement: true,
        link: true,
        qr: true,
        description: true,
        remarks: false,
        private_remarks: false,
        watermark: false,
        staged_label: None,
        placement: Placement::OriginalFirst,
        enhancement_exempt: true,
    },
    // Smart MLS (Connecticut): a virtually staged photo carries a stamp or watermark saying so; no original needs
    // to go with it.
    Rules {
        profile: DisclosureProfile::SmartMls,
        source: Some(RuleSource {
            citation: "Smart MLS, connectMLS help center: Virtually Staged Photos",
            address: "https://connectmls.smartmls.com/hc/en-us/articles/34224328443675-Virtually-Staged-Photos",
            words: "Virtually staged photos: MUST have a stamp/watermark that notes that they are virtually staged. \
                    If you do not watermark the photo yourself prior to uploading it, you can ask connectMLS to \
                    apply its own watermark to the photo. Do NOT need to be accompanied by an original/\"as is\" \
                    photo",
        }),
        statement: true,
        link: false,
        qr: false,
        description: false,
        remarks: false,
        private_remarks: false,
        watermark: true,
        staged_label: None,
        placement: Placement::OnPhoto,
        enhancement_exempt: false,
    },
    // MLS Now (Ohio) rules: no watermarks, overlays or QR codes on listing photos; the disclosure goes into the
    // photo's description (with the link to the original, as words).
    Rules {
        profile: DisclosureProfile::MlsNow,
        source: Some(RuleSource {
            citation: "MLS Now Rules, Section 3.1 and 3.3",
            address: "https://support.mlsnow.com/hc/en-us/articles/47635315367067-MLS-Now-Rules-Section-3-Images-Media-Virtual-Staging",
            words: "The following are prohibited: visible branding, watermarks, photos of agent/broker, marketing \
                    overlays, QR codes, misleading content, or any content violating law. [...] 3.3.1 Permitted \
                    alterations (with disclosure): Virtual staging limited to movable personal property (e.g., \
                    furniture, rugs, art)",
        }),
        statement: false,
        link: true,
        qr: false,
        description: true,
        remarks: false,
        private_remarks: false,
        watermark: false,
        staged_label: None,
        placement: Placement::InDescription,
        enhancement_exempt: false,
    },
    // Stellar MLS (Florida) rules: the public remarks begin "One or more photo(s) was virtually staged.", and the
    // photo itself is described as virtually staged.
    Rules {
        profile: DisclosureProfile::Stellar,
        source: Some(RuleSource {
            citation: "Stellar MLS Rules, Article 04.04: Virtually Staged Photos",
            address: "https://rules.stellarmls.com/hc/en-us/articles/14692987795095-Article-04-04-Virtually-Staged-Photos",
            words: "Disclosure of virtually-staged photo(s) is required in the specified field, namely the photo \
                    description entry field by adding the words \u{201c}Virtually staged\u{201d} and by checking the \
                    virtually staged field. Additionally, the first words of the public remarks must read \u{201c}One \
                    or more photo(s) was virtually staged.\u{201d}.",
        }),
        statement: false,
        link: false,
        qr: false,
        description: true,
        remarks: true,
        private_remarks: false,
        watermark: false,
        staged_label: None,
        placement: Placement::InDescription,
        enhancement_exempt: false,
    },
    // RealTracs (Tennessee) Rule 2.7: the media remarks designate a virtually staged image, the room as it is comes
    // immediately before or after it, and nothing is overlaid on a photo (no label, no QR code).
    Rules {
        profile: DisclosureProfile::Realtracs,
        source: Some(RuleSource {
            citation: "RealTracs Rules and Regulations, Rule 2.7 (Listing Media Requirements)",
            address: "https://news.realtracs.com/tag/photos/",
            words: "b) Digitally altering images to include overlays of other images, text, photos, or logos is \
                    prohibited. [...] 2. All virtually staged images must be designated as such in the media \
                    remarks. 3. Except for To-Be-Built and Under Construction listings, an image of the existing room \
                    or property in its current state must be included immediately before or immediately after the \
                    virtually staged image.",
        }),
        statement: false,
        link: false,
        qr: false,
        description: true,
        remarks: false,
        private_remarks: false,
        watermark: false,
        staged_label: None,
        placement: Placement::OriginalFirst,
        enhancement_exempt: false,
    },
    // RMLS (Portland, Oregon) Rule 3.8: a virtually staged photo says so on the photograph with the "Virtually
    // Staged" watermark; no other text or graphics are added (no QR code), and no original needs to go with it.
    Rules {
        profile: DisclosureProfile::Rmls,
        source: Some(RuleSource {
            citation: "RMLS Rules and Regulations, 3.8 Photographs (as amended 13 March 2023)",
            address: "https://rmlscentral.com/category/rules-and-regulations/",
            words: "The photographs are to be submitted without any added text or graphics, or any alterations that \
                    misrepresent the property. [...] If there is virtual staging in any of the photographs it must be \
                    disclosed on the photograph with the \u{201c}Virtually Staged\u{201d} watermark.",
        }),
        statement: true,
        link: false,
        qr: false,
        description: false,
        remarks: false,
        private_remarks: false,
        watermark: true,
        staged_label: Some("Virtually Staged"),
        placement: Placement::OnPhoto,
        enhancement_exempt: false,
    },
    // MAAR's MLS (Omaha Area Board of REALTORS®) Rules and Regulations, Section 1, Note 5: the disclosure is made in
    // the REALTOR® Remarks (the remarks agents read), and photos of the exterior are never virtually staged.
    Rules {
        profile: DisclosureProfile::Maar,
        source: Some(RuleSource {
            citation: "MAAR MLS Rules and Regulations, Section 1, Note 5 (approved 26 July 2018)",
            address: "https://maar.org/Default.aspx?p=34769&naid=25672",
            words: "Virtual Staging shall only be used for the interior of an existing structure. [...] Disclosure of \
                    virtually-staged photo(s) is required in REALTOR\u{ae} Remarks. [...] Prohibited Uses of Virtual \
                    Staging in the Service: a) No photos of the exterior of the property shall be virtually staged.",
        }),
        statement: false,
        link: false,
        qr: false,
        description: false,
        remarks: false,
        private_remarks: true,
        watermark: false,
        staged_label: None,
        placement: Placement::InRemarks,
        enhancement_exempt: false,
    },
    // The host discloses on its own; the choice is still recorded and its public page exists.
    Rules {
        profile: DisclosureProfile::None,
        source: None,
        statement: false,
        link: false,
        qr: false,
        description: false,
        remarks: false,
        private_remarks: false,
        watermark: false,
        staged_label: None,
        placement: Placement::None,
        enhancement_exempt: false,
    },
];

/// The rules of `profile`.
pub fn rules(profile: DisclosureProfile) -> Rules {
    PROFILES.into_iter().find(|rules| rules.profile == profile).unwrap_or(PROFILES[PROFILES.len() - 1])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_profile_has_exactly_one_row() {
        for profile in DisclosureProfile::ALL {
            assert_eq!(PROFILES.iter().filter(|rules| rules.profile == profile).count(), 1, "{profile:?}");
            assert_eq!(rules(profile).profile, profile);
        }
    }

    #[test]
    fn every_profile_of_a_law_or_mls_quotes_its_rule_at_its_public_address() {
        for rules in PROFILES {
            let Some(source) = rules.source else {
                assert_eq!(rules.profile, DisclosureProfile::None, "{:?} names no rule", rules.profile);
                continue;
            };
            assert!(source.address.starts_with("https://") && !source.words.is_empty(), "{:?}", rules.profile);
        }
        let statute = rules(DisclosureProfile::Ab723).source.unwrap().words;
        assert!(statute.contains("can be accessed on the linked internet website, URL, or QR code"));
        let stellar = rules(DisclosureProfile::Stellar);
        let quoted = stellar.source.unwrap().words;
        assert!(quoted.contains("photo description") && stellar.description, "its photo description field");
        assert!(quoted.contains("first words of the public remarks") && stellar.remarks);
        let mls_now = rules(DisclosureProfile::MlsNow);
        assert!(mls_now.source.unwrap().words.contains("watermarks") && !mls_now.watermark && !mls_now.qr);
        // RealTracs: no overlays, the media remarks, the room as it is immediately before
        let realtracs = rules(DisclosureProfile::Realtracs);
        let quoted = realtracs.source.unwrap().words;
        assert!(quoted.contains("overlays") && !realtracs.watermark && !realtracs.qr && !realtracs.statement);
        assert!(quoted.contains("media remarks") && realtracs.description);
        assert!(quoted.contains("immediately before") && realtracs.placement == Placement::OriginalFirst);
        // Smart MLS: a watermark on the photo, and no original needed beside it
        let smart = rules(DisclosureProfile::SmartMls);
        let quoted = smart.source.unwrap().words;
        assert!(quoted.contains("MUST have a stamp/watermark") && smart.watermark && smart.statement);
        assert!(quoted.contains("Do NOT need to be accompanied by an original") && !smart.link && !smart.qr);
        // RMLS: the watermark on the photograph, no other text or graphics on it
        let rmls = rules(DisclosureProfile::Rmls);
        let quoted = rmls.source.unwrap().words;
        assert!(
            quoted.contains("disclosed on the photograph") && rmls.watermark && rmls.placement == Placement::OnPhoto
        );
        assert!(quoted.contains("without any added text or graphics") && !rmls.qr && !rmls.link);
        assert!(quoted.contains(&format!("\u{201c}{}\u{201d} watermark", rmls.staged_label.unwrap())));
        // MAAR: the REALTOR® Remarks, which agents read, and no exterior virtually staged
        let maar = rules(DisclosureProfile::Maar);
        let quoted = maar.source.unwrap().words;
        assert!(quoted.contains("required in REALTOR\u{ae} Remarks") && maar.private_remarks && !maar.remarks);
        assert!(!maar.watermark && !maar.qr && !maar.statement && !maar.description);
        assert!(quoted.contains("No photos of the exterior") && !DisclosureProfile::Maar.allows_staged_exteriors());
        let staging_outside = PROFILES.iter().filter(|rules| !rules.profile.allows_staged_exteriors());
        assert_eq!(staging_outside.map(|rules| rules.profile).collect::<Vec<_>>(), [DisclosureProfile::Maar]);
    }

    #[test]
    fn the_studio_asks_for_the_mark_by_default_exactly_where_a_profile_draws_one() {
        for rules in PROFILES {
            assert_eq!(rules.profile.asks_for_a_mark(), rules.watermark, "{:?}", rules.profile);
        }
    }

    #[test]
    fn rules_that_conflict_stay_apart() {
        // MLS Now forbids anything on the photo that Smart MLS requires there.
        let (mls_now, smart) = (rules(DisclosureProfile::MlsNow), rules(DisclosureProfile::SmartMls));
        assert!(!mls_now.watermark && !mls_now.qr && !mls_now.statement);
        assert!(smart.watermark);
        // AB 723 asks for the link; CRMLS, in California, keeps it and puts the original first.
        assert!(rules(DisclosureProfile::Ab723).link && rules(DisclosureProfile::Crmls).link);
        assert_eq!(rules(DisclosureProfile::Crmls).placement, Placement::OriginalFirst);
    }
}
