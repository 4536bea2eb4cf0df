//! The records as `disclosures.csv` (in the board's ZIP): a row per chosen result, for a broker's files.

use vstage_api::disclosure::Disclosure;

use crate::error::ServerError;

/// Ours, then the RESO Media resource's `MediaAlteration` (its values, comma-separated) and `LongDescription`.
const HEADER: [&str; 19] = [
    "id",
    "chosen_at",
    "subject",
    "render_id",
    "variation_id",
    "image_index",
    "variation_type",
    "processing",
    "profile",
    "lang",
    "statement",
    "description_text",
    "remarks_sentence",
    "private_remarks_sentence",
    "photo_url",
    "original_url",
    "disclosure_url",
    "MediaAlteration",
    "LongDescription",
];

/// The CSV of `records`, a header first.
pub fn csv(records: &[Disclosure]) -> Result<Vec<u8>, ServerError> {
    let failed = |error: csv::Error| ServerError::Internal(format!("disclosures.csv could not be written: {error}"));
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer.write_record(HEADER).map_err(failed)?;
    for record in records {
        let chosen_at = humantime::format_rfc3339_seconds(
            std::time::UNIX_EPOCH + std::time::Duration::from_millis(record.created_at.max(0) as u64),
        )
        .to_string();
        let optional = |text: &Option<String>| text.clone().unwrap_or_default();
        writer
            .write_record([
                record.id.clone(),
                chosen_at,
                record.subject.clone(),
                record.render_id.clone(),
                record.variation_id.clone(),
                record.image_index.to_string(),
                record.variation_type.as_ref().map(|kind| kind.as_str().to_string()).unwrap_or_default(),
                record.processing.clone(),
                record.profile.as_str().to_string(),
                record.lang.clone(),
                optional(&record.statement),
                optional(&record.description_text),
                optional(&record.remarks_sentence),
                optional(&record.private_remarks_sentence),
                record.url.clone(),
                record.original_url.clone(),
                optional(&record.disclosure_url),
                record.reso.media_alteration.join(","),
                record.reso.long_description.clone(),
            ])
            .map_err(failed)?;
    }
    writer.into_inner().map_err(|error| ServerError::Internal(format!("disclosures.csv: {error}")))
}
