//! The records as `disclosures.csv` (in the board's ZIP): a row per chosen result, for a broker's files.

use serde_json::json;
use vstage_api::disclosure::Disclosure;

use crate::error::ServerError;
use crate::report_csv::{Cell, ReportCsv};

/// Ours, then the RESO Media resource's `MediaAlteration` (its values, comma-separated) and `LongDescription`,
/// then the host's references kept with the render (`metadata` as its JSON).
const HEADER: [&str; 22] = [
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
    "listing_id",
    "photo_id",
    "metadata",
];

/// The CSV of `records`, a header first. `image_index` is a number; every other column is text, made inert by
/// `report_csv` (the subject is the token's, any text; the others are ids, words and addresses).
pub fn csv(records: &[Disclosure]) -> Result<Vec<u8>, ServerError> {
    let failed = |error: csv::Error| ServerError::Internal(format!("disclosures.csv could not be written: {error}"));
    let mut csv = ReportCsv::default();
    csv.header(&HEADER).map_err(failed)?;
    for record in records {
        let chosen_at = humantime::format_rfc3339_seconds(
            std::time::UNIX_EPOCH + std::time::Duration::from_millis(record.created_at.max(0) as u64),
        )
        .to_string();
        let optional = |text: &Option<String>| text.clone().unwrap_or_default();
        let variation_type = record.variation_type.as_ref().map(|kind| kind.as_str().to_string());
        let before = [
            record.id.clone(),
            chosen_at,
            record.subject.clone(),
            record.render_id.clone(),
            record.variation_id.clone(),
        ];
        let after = [
            variation_type.unwrap_or_default(),
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
            optional(&record.reference.listing_id),
            optional(&record.reference.photo_id),
            record.reference.metadata.as_ref().map(|metadata| json!(metadata).to_string()).unwrap_or_default(),
        ];
        let cells = before
            .iter()
            .map(|text| Cell::Text(text))
            .chain([Cell::Number(i64::from(record.image_index))])
            .chain(after.iter().map(|text| Cell::Text(text)));
        csv.row(cells).map_err(failed)?;
    }
    csv.finish().map_err(failed)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::testing::csv::{HOSTILE, assert_inert, read_with_python};

    /// A record whose every text is `text`.
    fn record_of(text: &str) -> Disclosure {
        serde_json::from_value(json!({
            "id": text, "created_at": 1_764_633_600_000_i64, "subject": text, "render_id": text,
            "variation_id": text, "image_index": 3, "variation_type": text, "processing": text,
            "profile": "ab723", "lang": text, "exempt": false, "url": text, "original_url": text,
            "statement": text, "description_text": text, "remarks_sentence": text,
            "private_remarks_sentence": text, "disclosure_url": text, "qr_svg_url": null, "qr_png_url": null,
            "placement": "next-to-altered-photo", "watermarked": false,
            "reso": {"MediaAlteration": [text], "LongDescription": text},
            "listing_id": text, "photo_id": text, "metadata": {"agent": text},
        }))
        .unwrap()
    }

    #[test]
    fn every_text_a_record_carries_is_inert_in_a_spreadsheet_and_the_image_index_a_number() {
        let records: Vec<Disclosure> = HOSTILE.iter().map(|text| record_of(text)).collect();
        let bytes = csv(&records).unwrap();
        let read = read_with_python(&bytes);
        assert_eq!(read.cells[0], HEADER);
        assert_eq!(read.cells.len(), HOSTILE.len() + 1, "a row per record, whatever the commas and line feeds");
        for (row, text) in read.cells[1..].iter().zip(HOSTILE) {
            assert_eq!((row[1].as_str(), row[5].as_str(), row[8].as_str()), ("2025-12-02T00:00:00Z", "3", "ab723"));
            for (_, cell) in row.iter().enumerate().filter(|(column, _)| ![1, 5, 8, 21].contains(column)) {
                assert_inert(cell, text);
            }
            let metadata = json!({"agent": text}).to_string();
            assert_inert(&row[21], &metadata);
        }
        for row in &read.typed[1..] {
            assert_eq!(row[5], json!(3.0), "the image index is a number: {row:?}");
            assert!(row.iter().enumerate().all(|(column, cell)| column == 5 || cell.is_string()), "{row:?}");
        }
    }
}
