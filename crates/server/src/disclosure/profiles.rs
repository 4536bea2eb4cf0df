//! What each disclosure profile asks of a listing photo: one row per law or MLS, each with its rule's source. A new
//! MLS is one more row here (and its name in `vstage_api::disclosure::DisclosureProfile`).

use vstage_api::disclosure::{DisclosureProfile, Placement};

/// One profile's rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rules {
    pub profile: DisclosureProfile,
    /// A statement on or next to the photo.
    pub statement: bool,
    /// A link to the public page with the original photo, and a QR code for it.
    pub link: bool,
    pub qr: bool,
    /// Words for the photo's description field.
    pub description: bool,
    /// A sentence the listing's public remarks begin with.
    pub remarks: bool,
    /// A label drawn into the photo (our kept copy), in the listing's language.
    pub watermark: bool,
    pub placement: Placement,
    /// Whether a photo only enhanced (light, colour, exposure) needs no statement or link, as the law says.
    pub enhancement_exempt: bool,
}

pub const PROFILES: [Rules; 6] = [
    // California AB 723, Business and Professions Code §10140.8 (in force 1 January 2026): an altered listing image
    // carries a reasonably conspicuous statement on or next to it and a link, URL or QR code to a publicly
    // accessible page where the original is clearly identified. Lighting, white balance, colour, sharpening,
    // straightening, cropping and exposure changes are exempt.
    Rules {
        profile: DisclosureProfile::Ab723,
        statement: true,
        link: true,
        qr: true,
        description: false,
        remarks: false,
        watermark: false,
        placement: Placement::NextToAlteredPhoto,
        enhancement_exempt: true,
    },
    // CRMLS (California Regional MLS) rules on virtual staging: the original photo right before or after the altered
    // one, and "virtually staged", "digitally altered" or "digitally enhanced" in the photo's description; no
    // watermark needed. Its members are in California, so AB 723's statement and link apply as well.
    Rules {
        profile: DisclosureProfile::Crmls,
        statement: true,
        link: true,
        qr: true,
        description: true,
        remarks: false,
        watermark: false,
        placement: Placement::OriginalFirst,
        enhancement_exempt: true,
    },
    // Smart MLS (Connecticut) rules: a virtually staged or altered photo carries a watermark saying so.
    Rules {
        profile: DisclosureProfile::SmartMls,
        statement: true,
        link: false,
        qr: false,
        description: false,
        remarks: false,
        watermark: true,
        placement: Placement::OnPhoto,
        enhancement_exempt: false,
    },
    // MLS Now (Ohio) rules: no watermarks, overlays or QR codes on listing photos; the disclosure goes into the
    // photo's description (with the link to the original, as words).
    Rules {
        profile: DisclosureProfile::MlsNow,
        statement: false,
        link: true,
        qr: false,
        description: true,
        remarks: false,
        watermark: false,
        placement: Placement::InDescription,
        enhancement_exempt: false,
    },
    // Stellar MLS (Florida) rules: the public remarks begin "One or more photo(s) was virtually staged.", and the
    // photo itself is described as virtually staged.
    Rules {
        profile: DisclosureProfile::Stellar,
        statement: false,
        link: false,
        qr: false,
        description: true,
        remarks: true,
        watermark: false,
        placement: Placement::InDescription,
        enhancement_exempt: false,
    },
    // The host discloses on its own; the choice is still recorded and its public page exists.
    Rules {
        profile: DisclosureProfile::None,
        statement: false,
        link: false,
        qr: false,
        description: false,
        remarks: false,
        watermark: false,
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
