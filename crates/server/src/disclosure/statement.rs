//! A record made into what the listing shows: the facts of the result (what was done), the profile's rules and
//! the listing's words give the statement, the description and remarks sentences and which links to hand out.
//! Plain functions of the data, tested here.

use vstage_api::config::Config;
use vstage_api::disclosure::{Disclosure, DisclosureProfile, ResoMedia};
use vstage_api::render::Variation;
use vstage_api::vocabulary::{RemovalMode, VariationType};

use super::profiles::{Rules, rules};
use super::words::{Words, words};
use crate::storage::store::DisclosureRecord;

/// What was done to a result, as the variation tells it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Facts {
    pub kind: Option<VariationType>,
    /// The staging style, as the service names it.
    pub style: Option<String>,
    pub furniture_removed: bool,
}

impl Facts {
    pub fn of(variation: &Variation) -> Self {
        let mut facts = Facts { kind: variation.kind.clone(), style: None, furniture_removed: false };
        match &variation.config {
            Some(Config::Staging(staging)) => {
                facts.style = Some(staging.add_furniture.style.as_str().to_string());
                facts.furniture_removed =
                    staging.remove_furniture.as_ref().is_some_and(|remove| remove.mode != RemovalMode::Off);
            }
            Some(Config::LegacyStaging(legacy)) => facts.style = Some(legacy.style.as_str().to_string()),
            Some(Config::RemovalOnly(_)) => facts.furniture_removed = true,
            _ => facts.furniture_removed = facts.kind == Some(VariationType::Removal),
        }
        facts
    }

    pub fn of_record(record: &DisclosureRecord) -> Self {
        let kind = (!record.variation_type.is_empty())
            .then(|| serde_json::from_value(serde_json::Value::String(record.variation_type.clone())).ok())
            .flatten();
        let style = (!record.style.is_empty()).then(|| record.style.clone());
        Facts { kind, style, furniture_removed: record.furniture_removed }
    }

    /// Whether `rules` let this result go without a statement: enhancement alone, where the law exempts it.
    pub fn exempt(&self, rules: &Rules) -> bool {
        rules.enhancement_exempt && self.kind == Some(VariationType::Enhancement) && !self.furniture_removed
    }

    /// The short statement, also the label drawn into a photo.
    pub fn short_statement(&self, words: &Words) -> &'static str {
        match self.kind {
            Some(VariationType::Staging) => words.virtually_staged,
            Some(VariationType::Enhancement) if !self.furniture_removed => words.digitally_enhanced,
            _ => words.digitally_altered,
        }
    }

    /// The label drawn into the photo under `rules`: the rule's own words for a staged photo where it prescribes
    /// them, else the short statement in the listing's language.
    pub fn label(&self, rules: &Rules, words: &Words) -> &'static str {
        match (&self.kind, rules.staged_label) {
            (Some(VariationType::Staging), Some(prescribed)) => prescribed,
            _ => self.short_statement(words),
        }
    }

    /// The statement as a sentence that says the image was altered (or only enhanced).
    pub fn altered_sentence(&self, words: &Words) -> &'static str {
        match self.kind {
            Some(VariationType::Staging) => words.staged_altered,
            Some(VariationType::Enhancement) if !self.furniture_removed => words.image_enhanced,
            _ => words.image_altered,
        }
    }

    /// RESO's `MediaAlteration` values for what was done.
    pub fn media_alteration(&self) -> Vec<String> {
        let mut values = Vec::new();
        if self.furniture_removed {
            values.push("DeclutteredItemRemoved");
        }
        match self.kind {
            Some(VariationType::Staging) => values.push("VirtualStagingItemAddition"),
            Some(VariationType::DayToDusk) => values.push("TwilightConversion"),
            Some(VariationType::Enhancement) => values.push("VirtualEnhancements"),
            Some(VariationType::Removal) if self.furniture_removed => {}
            _ => values.push("OtherMediaModification"),
        }
        values.into_iter().map(str::to_string).collect()
    }

    /// What was changed, a line each, in `words`' language.
    pub fn changes(&self, words: &Words) -> Vec<String> {
        let mut changes = Vec::new();
        if self.furniture_removed {
            changes.push(words.furniture_removed.to_string());
        }
        match self.kind {
            Some(VariationType::Staging) => {
                let style = self.style.as_deref().unwrap_or("standard").replace(['_', '-'], " ");
                changes.push(words.furniture_added.replace("{{ style }}", &style));
            }
            Some(VariationType::DayToDusk) => changes.push(words.sky_to_dusk.to_string()),
            Some(VariationType::Enhancement) => changes.push(words.enhanced.to_string()),
            Some(VariationType::Removal) if self.furniture_removed => {}
            _ => changes.push(words.digitally_altered.to_string()),
        }
        changes
    }
}

/// The addresses a record is shown with, all this server's and signed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Links {
    pub photo: String,
    /// The kept copies for screens and lists, when the record names them.
    pub optimized: Option<String>,
    pub thumbnail: Option<String>,
    pub original: String,
    pub page: String,
    pub qr_svg: String,
    pub qr_png: String,
}

/// The record as the listing shows it.
pub fn disclosure(record: &DisclosureRecord, links: Links) -> Disclosure {
    let profile = DisclosureProfile::parse(&record.profile).unwrap_or(DisclosureProfile::None);
    let (rules, words) = (rules(profile), words(&record.lang));
    let facts = Facts::of_record(record);
    let exempt = facts.exempt(&rules);
    let short = facts.label(&rules, words);
    // Where there is a link, the statute's words: the image was altered, and the unaltered original can be accessed
    // at the link (or QR code).
    let access = if rules.qr { words.unaltered_at_link_or_qr } else { words.unaltered_at_link };
    let altered = facts.altered_sentence(words);
    let with_link = format!("{altered} {access}: {}", links.page);
    let statement = (rules.statement && !exempt).then(|| match rules.link {
        true => with_link.clone(),
        false => short.to_string(),
    });
    let description_text = rules.description.then(|| match (rules.link, rules.placement) {
        (_, vstage_api::disclosure::Placement::OriginalFirst) => format!("{short}. {}", words.original_before),
        (true, _) if !exempt => with_link.clone(),
        _ => format!("{short}."),
    });
    let statement_words = statement.as_ref().map(|_| match rules.link {
        true => format!("{altered} {access}."),
        false => format!("{short}."),
    });
    let remarks = match facts.kind {
        Some(VariationType::Staging) => words.remarks_staged,
        _ => words.remarks_altered,
    };
    let remarks_sentence = rules.remarks.then(|| remarks.to_string());
    let private_remarks_sentence = rules.private_remarks.then(|| remarks.to_string());
    // RESO's LongDescription: what the description field gets, else the statement, else that it was altered.
    let long_description =
        description_text.clone().or_else(|| statement.clone()).unwrap_or_else(|| altered.to_string());
    let reso = ResoMedia {
        media_alteration: facts.media_alteration(),
        long_description: long_description.chars().take(RESO_LONG_DESCRIPTION).collect(),
    };
    let linked = rules.link && !exempt;
    let coded = rules.qr && !exempt;
    Disclosure {
        id: record.id.clone(),
        created_at: record.created_at,
        chosen_at: chrono::DateTime::from_timestamp_millis(record.created_at)
            .unwrap_or_default()
            .to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
        subject: record.subject.clone(),
        render_id: record.render_id.clone(),
        variation_id: record.variation_id.clone(),
        image_index: record.image_index,
        variation_type: facts.kind.clone(),
        processing: facts.changes(words).join("; "),
        profile,
        lang: words.lang.to_string(),
        exempt,
        url: links.photo,
        optimized_url: links.optimized,
        thumbnail_url: links.thumbnail,
        replaces: record.replaces.clone(),
        original_url: links.original,
        statement_words,
        link_words: linked.then(|| words.unaltered_original.to_string()),
        statement,
        description_text,
        remarks_sentence,
        private_remarks_sentence,
        disclosure_url: linked.then(|| links.page.clone()),
        qr_svg_url: coded.then_some(links.qr_svg),
        qr_png_url: coded.then_some(links.qr_png),
        placement: rules.placement,
        watermarked: rules.watermark,
        reso,
        reference: record.reference.clone(),
    }
}

/// The longest `LongDescription` RESO's Data Dictionary 2.1 takes.
const RESO_LONG_DESCRIPTION: usize = 1024;

#[cfg(test)]
mod tests {
    use vstage_api::disclosure::Placement;

    use super::*;

    fn record(profile: &str, kind: &str, lang: &str) -> DisclosureRecord {
        DisclosureRecord {
            id: "dsc_1".into(),
            subject: "agent-7".into(),
            created_at: 1_795_000_000_000,
            render_id: "rnd_1".into(),
            variation_id: "var_1".into(),
            image_index: 0,
            variation_type: kind.into(),
            style: if kind == "staging" { "mid-century modern".into() } else { String::new() },
            furniture_removed: kind == "removal",
            profile: profile.into(),
            lang: lang.into(),
            photo_file: "rnd_1/var_1/0-url.jpg".into(),
            original_file: "rnd_1/var_1/original.jpg".into(),
            optimized_file: None,
            thumbnail_file: None,
            replaces: None,
            reference: Default::default(),
        }
    }

    fn links() -> Links {
        Links {
            optimized: None,
            thumbnail: None,
            photo: "https://v.example/api/results/rnd_1/var_1/0-url.jpg?sig=a".into(),
            original: "https://v.example/api/results/rnd_1/var_1/original.jpg?sig=b".into(),
            page: "https://v.example/disclosures/dsc_1?sig=c".into(),
            qr_svg: "https://v.example/disclosures/dsc_1/qr.svg?sig=c".into(),
            qr_png: "https://v.example/disclosures/dsc_1/qr.png?sig=c".into(),
        }
    }

    #[test]
    fn ab_723_gives_a_statement_with_the_link_and_a_qr_code() {
        let shown = disclosure(&record("ab723", "staging", "en"), links());
        // §10140.8(a)(1): that it was altered, and that the unaltered original can be accessed at the link or QR code
        assert_eq!(
            shown.statement.as_deref(),
            Some(
                "Virtually staged: this image was digitally altered. The unaltered original can be accessed at the \
                 linked page or QR code: https://v.example/disclosures/dsc_1?sig=c"
            )
        );
        assert_eq!(shown.processing, "Furniture and decor added digitally, in the mid century modern style");
        // the same words apart from the link, for a caption that shows the link as a link
        let apart = (shown.statement_words.as_deref(), shown.link_words.as_deref());
        let words = "Virtually staged: this image was digitally altered. The unaltered original can be accessed at \
                     the linked page or QR code.";
        assert_eq!(apart, (Some(words), Some("Unaltered original photo")));
        assert!(shown.qr_png_url.is_some() && shown.disclosure_url.is_some());
        assert_eq!((shown.placement, shown.watermarked, shown.exempt), (Placement::NextToAlteredPhoto, false, false));
        assert_eq!(shown.description_text, None);
    }

    #[test]
    fn the_statute_s_sentence_is_said_in_every_language() {
        for (lang, altered, accessed, link) in [
            ("en", "digitally altered", "can be accessed at the linked page or QR code", "Unaltered original photo"),
            (
                "de",
                "digital verändert",
                "über die verlinkte Seite oder den QR-Code abrufbar",
                "Unverändertes Originalfoto",
            ),
            (
                "es",
                "modificada digitalmente",
                "puede consultarse en la página enlazada o con el código QR",
                "sin modificar",
            ),
            ("fr", "retouchée numériquement", "accessible sur la page liée ou par le code QR", "non retouchée"),
        ] {
            let shown = disclosure(&record("ab723", "staging", lang), links());
            let statement = shown.statement.unwrap_or_default();
            assert!(statement.contains(altered) && statement.contains(accessed), "{lang}: {statement}");
            assert!(statement.ends_with("https://v.example/disclosures/dsc_1?sig=c"), "{lang}: {statement}");
            assert!(shown.link_words.unwrap_or_default().contains(link), "{lang}");
        }
    }

    #[test]
    fn the_reso_fields_say_what_was_done_in_its_lookup_s_values() {
        let staged = disclosure(&record("crmls", "staging", "en"), links());
        assert_eq!(staged.reso.media_alteration, ["VirtualStagingItemAddition"]);
        assert_eq!(Some(staged.reso.long_description), staged.description_text, "the description field's words");
        let removed = disclosure(&record("ab723", "removal", "de"), links());
        assert_eq!(removed.reso.media_alteration, ["DeclutteredItemRemoved"]);
        assert_eq!(Some(removed.reso.long_description), removed.statement);
        let dusk = disclosure(&record("none", "day_to_dusk", "en"), links());
        assert_eq!(dusk.reso.media_alteration, ["TwilightConversion"]);
        assert_eq!(dusk.reso.long_description, "This image was digitally altered.", "said even with no profile");
        let both = Facts { kind: Some(VariationType::Staging), style: None, furniture_removed: true };
        assert_eq!(both.media_alteration(), ["DeclutteredItemRemoved", "VirtualStagingItemAddition"]);
        let enhanced = disclosure(&record("ab723", "enhancement", "en"), links());
        assert_eq!(enhanced.reso.media_alteration, ["VirtualEnhancements"]);
    }

    #[test]
    fn enhancement_alone_is_exempt_where_the_law_exempts_it() {
        let shown = disclosure(&record("ab723", "enhancement", "en"), links());
        assert!(shown.exempt);
        assert_eq!((shown.statement, shown.disclosure_url, shown.qr_svg_url), (None, None, None));
        // Smart MLS has no such exemption.
        let smart = disclosure(&record("smart-mls", "enhancement", "en"), links());
        assert_eq!(smart.statement.as_deref(), Some("Digitally enhanced"));
    }

    #[test]
    fn each_mls_gets_what_its_rules_ask_in_the_listing_s_language() {
        let crmls = disclosure(&record("crmls", "removal", "de"), links());
        assert_eq!(crmls.placement, Placement::OriginalFirst);
        assert_eq!(
            crmls.description_text.as_deref(),
            Some("Digital verändert. Das Originalfoto steht direkt vor diesem.")
        );
        let mls_now = disclosure(&record("mls-now", "day_to_dusk", "en"), links());
        assert_eq!((mls_now.statement, mls_now.qr_png_url, mls_now.watermarked), (None, None, false));
        // no QR code under MLS Now: the link alone is named
        assert_eq!(
            mls_now.description_text.as_deref(),
            Some(
                "This image was digitally altered. The unaltered original can be accessed at the linked page: \
                 https://v.example/disclosures/dsc_1?sig=c"
            )
        );
        // RealTracs: the media remarks say it, the original comes first, nothing on the photo
        let realtracs = disclosure(&record("realtracs", "staging", "en"), links());
        assert_eq!(
            realtracs.description_text.as_deref(),
            Some("Virtually staged. The original photo is shown right before this one.")
        );
        assert_eq!((realtracs.placement, realtracs.watermarked), (Placement::OriginalFirst, false));
        assert_eq!((realtracs.statement, realtracs.qr_png_url, realtracs.disclosure_url), (None, None, None));
        let stellar = disclosure(&record("stellar", "staging", "en"), links());
        assert_eq!(stellar.remarks_sentence.as_deref(), Some("One or more photo(s) was virtually staged."));
        let smart = disclosure(&record("smart-mls", "staging", "fr"), links());
        assert_eq!((smart.statement.as_deref(), smart.watermarked), (Some("Meublée virtuellement"), true));
        assert_eq!((smart.statement_words.as_deref(), smart.link_words), (Some("Meublée virtuellement."), None));
        // RMLS: the label on the photo and nothing else added to it; MAAR: the agents' remarks, nothing on the photo
        let rmls = disclosure(&record("rmls", "staging", "es"), links());
        assert_eq!((rmls.statement.as_deref(), rmls.watermarked), (Some("Virtually Staged"), true), "the rule's words");
        let removed = disclosure(&record("rmls", "removal", "es"), links());
        assert_eq!(removed.statement.as_deref(), Some("Modificada digitalmente"), "the rule names staging alone");
        assert_eq!((rmls.placement, rmls.qr_png_url, rmls.disclosure_url), (Placement::OnPhoto, None, None));
        let maar = disclosure(&record("maar", "staging", "en"), links());
        assert_eq!(maar.private_remarks_sentence.as_deref(), Some("One or more photo(s) was virtually staged."));
        assert_eq!((maar.placement, maar.watermarked, maar.remarks_sentence), (Placement::InRemarks, false, None));
        assert_eq!((maar.statement, maar.description_text, maar.qr_png_url), (None, None, None));
        let in_german = disclosure(&record("maar", "removal", "de"), links());
        assert_eq!(
            in_german.private_remarks_sentence.as_deref(),
            Some("Ein oder mehrere Fotos wurden digital verändert.")
        );
        assert_eq!(stellar.private_remarks_sentence, None, "Stellar's remarks are the public ones");
        let none = disclosure(&record("none", "staging", "es"), links());
        assert_eq!((none.statement, none.description_text, none.disclosure_url), (None, None, None));
        assert_eq!(none.processing, "Muebles y decoración añadidos digitalmente, en estilo mid century modern");
    }
}
