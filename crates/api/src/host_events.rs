//! What an embedded widget tells its host page: the `detail` of each `vstage-*` DOM event, one type each, so a
//! host written in Rust reads them with the same types. `ResultChosen` carries the disclosure listing rules ask for.

use serde::{Deserialize, Serialize};

use crate::disclosure::{Disclosure, DisclosureProfile, Placement, ResoMedia};
use crate::host_reference::HostReference;
use crate::render::{Variation, VariationResult};
use crate::usage::UsageKind;
use crate::vocabulary::VariationType;

/// `vstage-ready`: the studio is mounted and talking to its server.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ready {
    /// The `/api` base the widget uses.
    pub api_base: String,
}

/// `vstage-render-created`: with the references the render was created with.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RenderCreated {
    pub render_id: String,
    #[serde(flatten)]
    pub reference: HostReference,
}

/// `vstage-variation-done`: a variation the studio is showing finished.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VariationDone {
    pub render_id: String,
    pub variation_id: String,
    pub variation_type: Option<VariationType>,
    pub result: Option<VariationResult>,
    /// The host's references kept with its render.
    #[serde(flatten)]
    pub reference: HostReference,
}

impl VariationDone {
    pub fn of(variation: &Variation, reference: HostReference) -> Self {
        VariationDone {
            render_id: variation.render_id.clone(),
            variation_id: variation.id.clone(),
            variation_type: variation.kind.clone(),
            result: variation.result.clone(),
            reference,
        }
    }
}

/// `vstage-allowance-low` (80 % of it used) and `vstage-allowance-spent` (all of it): the agent's allowance of one
/// kind this month, when the server gives agents allowances (`vstage serve --allowance`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AllowanceLevel {
    /// `staging` or `image-editing`.
    pub kind: UsageKind,
    pub used: u64,
    pub limit: u64,
    /// When it renews (epoch milliseconds).
    pub renews_at: i64,
}

/// `vstage-result-chosen`: the agent pressed "Use in listing" on a finished variation. The host webhook
/// `result.chosen` carries the same fields, made from the same record (`ResultChosen::recorded`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ResultChosen {
    /// Who chose it (the token's subject), from the record.
    #[serde(default)]
    pub subject: Option<String>,
    /// When, in RFC 3339, from the record.
    #[serde(default)]
    pub chosen_at: Option<String>,
    pub render_id: String,
    pub variation_id: String,
    pub variation_type: Option<VariationType>,
    /// Which image of the result: 0, or the view of a multi-view result.
    #[serde(default)]
    pub image_index: u32,
    pub url: String,
    pub optimized_url: Option<String>,
    pub thumbnail_url: Option<String>,
    /// The photo as taken, which the disclosure points to (once recorded, the server's kept copy of it).
    pub original_url: Option<String>,
    /// The listing's photo this result takes the place of: the address the render was made from, as the studio was
    /// given it (the listing's `photo-url`, a sample's, an upload's). The listing shows the result in its place, or
    /// right after it where `placement` is `original-first`; a later choice for the same photo replaces this one.
    #[serde(default)]
    pub replaces: Option<String>,
    /// Whether furniture or decor was added (virtual staging); every kind is a digital alteration.
    pub virtually_staged: bool,
    /// A caption for the photo: what was altered and where the original is (MLS rules, California's AB 723).
    pub disclosure: String,
    /// What the listing's disclosure profile asks for, from the record `vstage serve` made of the choice
    /// (`POST /api/disclosures`): `None` (or false) where the profile asks for nothing, or the record could not be
    /// made.
    #[serde(default)]
    pub disclosure_id: Option<String>,
    #[serde(default)]
    pub profile: Option<DisclosureProfile>,
    #[serde(default)]
    pub statement: Option<String>,
    /// The statement without its link, and the words of the link to `disclosure_url`: a caption that shows the
    /// link as a link, not as a written address.
    #[serde(default)]
    pub statement_words: Option<String>,
    #[serde(default)]
    pub link_words: Option<String>,
    #[serde(default)]
    pub description_text: Option<String>,
    #[serde(default)]
    pub remarks_sentence: Option<String>,
    /// The sentence for the remarks only agents read (RESO's `PrivateRemarks`).
    #[serde(default)]
    pub private_remarks_sentence: Option<String>,
    #[serde(default)]
    pub disclosure_url: Option<String>,
    #[serde(default)]
    pub qr_svg_url: Option<String>,
    #[serde(default)]
    pub qr_png_url: Option<String>,
    #[serde(default)]
    pub placement: Option<Placement>,
    /// Whether `url`'s photo carries a visible label saying it was altered.
    #[serde(default)]
    pub watermarked: bool,
    /// Whether the law lets this result go without a statement (enhancement alone, under AB 723).
    #[serde(default)]
    pub exempt: bool,
    /// RESO's `MediaAlteration` and `LongDescription` for an MLS feed, from the record.
    #[serde(default)]
    pub reso: Option<ResoMedia>,
    /// What was done, in the listing's language, and that language, from the record.
    #[serde(default)]
    pub processing: Option<String>,
    #[serde(default)]
    pub lang: Option<String>,
    /// The host's references kept with the render.
    #[serde(flatten)]
    pub reference: HostReference,
}

impl ResultChosen {
    /// The choice of `variation`'s image `image_index` (its view, for a multi-view result), made from
    /// `original_url`; `None` until the variation has that image.
    pub fn of(variation: &Variation, image_index: u32, original_url: Option<&str>) -> Option<Self> {
        let image = variation.result.as_ref()?.images().get(usize::try_from(image_index).ok()?)?;
        let kind = variation.kind.as_ref();
        Some(ResultChosen {
            render_id: variation.render_id.clone(),
            variation_id: variation.id.clone(),
            variation_type: variation.kind.clone(),
            image_index,
            url: image.url.clone(),
            optimized_url: image.optimized_url.clone(),
            thumbnail_url: image.thumbnail_url.clone(),
            original_url: original_url.map(str::to_string),
            replaces: original_url.map(str::to_string),
            virtually_staged: matches!(kind, Some(VariationType::Staging)),
            disclosure: disclosure(kind, original_url),
            ..ResultChosen::default()
        })
    }

    /// The choice a record describes, with what it says the listing shows: the kept photo to use (labelled where
    /// the profile asks for a watermark) and its kept copies, the kept original, the statement and the links. Every
    /// address in it is this server's, lasting as the record.
    pub fn recorded(record: Disclosure) -> Self {
        let kind = record.variation_type.clone();
        let caption = record.statement.clone().or_else(|| record.description_text.clone());
        let caption = caption.unwrap_or_else(|| disclosure(kind.as_ref(), Some(&record.original_url)));
        ResultChosen {
            subject: Some(record.subject),
            chosen_at: Some(record.chosen_at).filter(|at| !at.is_empty()),
            render_id: record.render_id,
            variation_id: record.variation_id,
            virtually_staged: matches!(kind, Some(VariationType::Staging)),
            variation_type: kind,
            image_index: record.image_index,
            optimized_url: record.optimized_url,
            thumbnail_url: record.thumbnail_url,
            replaces: record.replaces,
            processing: Some(record.processing),
            lang: Some(record.lang),
            reference: record.reference,
            url: record.url,
            original_url: Some(record.original_url),
            disclosure: caption,
            disclosure_id: Some(record.id),
            profile: Some(record.profile),
            statement: record.statement,
            statement_words: record.statement_words,
            link_words: record.link_words,
            description_text: record.description_text,
            remarks_sentence: record.remarks_sentence,
            private_remarks_sentence: record.private_remarks_sentence,
            disclosure_url: record.disclosure_url,
            qr_svg_url: record.qr_svg_url,
            qr_png_url: record.qr_png_url,
            placement: Some(record.placement),
            watermarked: record.watermarked,
            exempt: record.exempt,
            reso: Some(record.reso),
        }
    }
}

impl ResultChosen {
    /// The choice of image `index` of a v1 render's `outputs` (which have no ids: `variation_id` is
    /// `v1-output-{index}`); `staged` for a staging result, false for an empty room.
    pub fn of_v1_output(render_id: &str, index: usize, url: &str, staged: bool, original_url: Option<&str>) -> Self {
        let kind = if staged { VariationType::Staging } else { VariationType::Removal };
        ResultChosen {
            render_id: render_id.to_string(),
            variation_id: crate::disclosure::v1_output_id(u32::try_from(index).unwrap_or(u32::MAX)),
            disclosure: disclosure(Some(&kind), original_url),
            variation_type: Some(kind),
            url: url.to_string(),
            optimized_url: None,
            thumbnail_url: None,
            original_url: original_url.map(str::to_string),
            replaces: original_url.map(str::to_string),
            virtually_staged: staged,
            ..ResultChosen::default()
        }
    }
}

/// "Virtually staged: this image was digitally altered. The unaltered original can be accessed at the linked page:
/// <url>", worded for what the variation did, as California's §10140.8(a)(1) asks (the statement the server's
/// disclosure record gives replaces it, in the listing's language).
pub fn disclosure(kind: Option<&VariationType>, original_url: Option<&str>) -> String {
    let what = match kind {
        Some(VariationType::Staging) => "Virtually staged: this image was digitally altered.",
        Some(VariationType::Removal) => "This image was digitally altered: furniture removed.",
        Some(VariationType::DayToDusk) => "This image was digitally altered: daytime photo shown at dusk.",
        Some(VariationType::Enhancement) => "This image was digitally enhanced.",
        _ => "This image was digitally altered.",
    };
    match original_url {
        Some(url) => format!("{what} The unaltered original can be accessed at the linked page: {url}"),
        None => format!("{what} The unaltered original is available on request."),
    }
}

/// `vstage-token-expired`: the server refused the widget token; the widget waits for the host to set a new one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TokenExpired {
    pub message: String,
}

/// `vstage-error`: something the host may want to log or show; the widget shows it too.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WidgetError {
    pub message: String,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::ResultImage;
    use crate::time::Timestamp;
    use crate::vocabulary::VariationStatus;

    fn variation(kind: VariationType, result: Option<VariationResult>) -> Variation {
        Variation {
            id: "var_1".into(),
            kind: Some(kind),
            render_id: "rnd_1".into(),
            created_at: serde_json::from_str::<Timestamp>("1795000000000").unwrap(),
            status: VariationStatus::Done,
            result,
            base_variation_id: None,
            eta: None,
            config: None,
            error_message: None,
        }
    }

    fn image() -> VariationResult {
        VariationResult::One(ResultImage {
            url: "https://img.example/full.jpg".into(),
            optimized_url: Some("https://img.example/web.jpg".into()),
            thumbnail_url: None,
        })
    }

    #[test]
    fn a_chosen_staging_result_is_disclosed_with_the_original() {
        let chosen =
            ResultChosen::of(&variation(VariationType::Staging, Some(image())), 0, Some("https://a.example/p.jpg"))
                .unwrap();
        assert!(chosen.virtually_staged);
        assert_eq!(chosen.url, "https://img.example/full.jpg");
        assert_eq!(
            chosen.disclosure,
            "Virtually staged: this image was digitally altered. The unaltered original can be accessed at the \
             linked page: https://a.example/p.jpg"
        );
        let json = serde_json::to_value(&chosen).unwrap();
        assert_eq!(json["variation_type"], "staging");
        assert_eq!(json["optimized_url"], "https://img.example/web.jpg");
    }

    #[test]
    fn every_kind_is_disclosed_and_only_staging_counts_as_staged() {
        let removal = ResultChosen::of(&variation(VariationType::Removal, Some(image())), 0, None).unwrap();
        assert!(!removal.virtually_staged);
        assert!(removal.disclosure.starts_with("This image was digitally altered: furniture removed."));
        let dusk = disclosure(Some(&VariationType::DayToDusk), Some("u"));
        assert!(
            dusk.contains("dusk") && dusk.ends_with("The unaltered original can be accessed at the linked page: u")
        );
        assert!(ResultChosen::of(&variation(VariationType::Staging, None), 0, None).is_none());
    }

    #[test]
    fn each_view_of_a_multi_view_result_can_be_chosen() {
        let view = |n: u32| ResultImage {
            url: format!("https://img.example/view-{n}.jpg"),
            optimized_url: None,
            thumbnail_url: None,
        };
        let views = VariationResult::Many(vec![view(1), view(2), view(3)]);
        let multi = variation(VariationType::Staging, Some(views));
        let second = ResultChosen::of(&multi, 1, None).unwrap();
        assert_eq!((second.image_index, second.url.as_str()), (1, "https://img.example/view-2.jpg"));
        assert!(ResultChosen::of(&multi, 3, None).is_none(), "there is no fourth view");
    }

    #[test]
    fn a_recorded_choice_carries_what_its_profile_asks_for() {
        let chosen_from = Some("https://a.example/p.jpg".to_string());
        let record = Disclosure {
            id: "dsc_1".into(),
            created_at: 1,
            chosen_at: "1970-01-01T00:00:00.001Z".into(),
            subject: "agent-7".into(),
            render_id: "rnd_1".into(),
            variation_id: "var_1".into(),
            image_index: 0,
            variation_type: Some(VariationType::Staging),
            processing: "Furniture added".into(),
            profile: DisclosureProfile::SmartMls,
            lang: "en".into(),
            exempt: false,
            url: "https://v.example/api/results/rnd_1/var_1/0-labelled-en.jpg?sig=a".into(),
            optimized_url: None,
            thumbnail_url: None,
            replaces: chosen_from.clone(),
            original_url: "https://v.example/api/results/rnd_1/var_1/original.jpg?sig=b".into(),
            statement: Some("Virtually staged".into()),
            statement_words: Some("Virtually staged.".into()),
            link_words: None,
            description_text: None,
            remarks_sentence: None,
            private_remarks_sentence: None,
            disclosure_url: None,
            qr_svg_url: None,
            qr_png_url: None,
            placement: Placement::OnPhoto,
            watermarked: true,
            reso: ResoMedia {
                media_alteration: vec!["VirtualStagingItemAddition".into()],
                long_description: "Virtually staged".into(),
            },
            reference: HostReference { listing_id: Some("L-1042".into()), ..HostReference::default() },
        };
        let disclosed = ResultChosen::recorded(record);
        assert_eq!((disclosed.render_id.as_str(), disclosed.variation_id.as_str()), ("rnd_1", "var_1"));
        assert!(disclosed.virtually_staged);
        assert_eq!(disclosed.chosen_at.as_deref(), Some("1970-01-01T00:00:00.001Z"));
        assert_eq!(disclosed.url, "https://v.example/api/results/rnd_1/var_1/0-labelled-en.jpg?sig=a");
        assert_eq!(
            disclosed.original_url.as_deref(),
            Some("https://v.example/api/results/rnd_1/var_1/original.jpg?sig=b")
        );
        assert_eq!((disclosed.disclosure.as_str(), disclosed.watermarked), ("Virtually staged", true));
        // the kept copy is not the listing's own photo: the one it replaces is still named as the studio had it
        assert_eq!(disclosed.replaces, chosen_from);
        let json = serde_json::to_value(&disclosed).unwrap();
        assert_eq!(
            (&json["profile"], &json["placement"]),
            (&serde_json::json!("smart-mls"), &serde_json::json!("on-photo"))
        );
        assert_eq!(json["reso"]["MediaAlteration"], serde_json::json!(["VirtualStagingItemAddition"]), "RESO's names");
        assert_eq!((&json["listing_id"], &json["photo_id"]), (&serde_json::json!("L-1042"), &serde_json::Value::Null));
        assert_eq!(json["disclosure_id"], "dsc_1", "named as the DOM event names it");
    }
}
