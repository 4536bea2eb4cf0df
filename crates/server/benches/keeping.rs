//! What keeping a 12-megapixel result costs with its content credentials, beside keeping it without them: each
//! as the server does it to the bytes it fetched (metadata stripped and provenance written, then the C2PA
//! manifest signed with the original photo, also 12 MP, as its parent), and reading the credentials back as the
//! originals page does. Prints one JSON line per figure (`{"figure", "ms", "reference_ms"}`) for
//! `cargo xtask bench`; run with `cargo bench --bench keeping`.

use std::io::Cursor;
use std::time::Instant;

use image::imageops::FilterType;
use vstage_api::vocabulary::VariationType;
use vstage_server::credentials::{ContentCredentials, Made, authority};
use vstage_server::provenance;

const RUNS: usize = 7;

/// A sample scene of the sandbox's at 4000×3000 with a camera's grain (the drawn scene alone compresses to a
/// tenth of a photo's size), as a JPEG at the service's usual quality.
fn photo_12mp(name: &str) -> Vec<u8> {
    let drawn = vstage_imaging::scenes::drawn(name).expect("a sample scene");
    let mut large = image::imageops::resize(&drawn, 4000, 3000, FilterType::Triangle);
    let mut state = 0x2545_f491_u32;
    for channel in large.iter_mut() {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        *channel = channel.saturating_add_signed((state % 25) as i8 - 12);
    }
    let mut jpeg = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut Cursor::new(&mut jpeg), 90)
        .encode_image(&large)
        .expect("encodes");
    jpeg
}

fn main() {
    let (original, result) = (photo_12mp("living-empty.jpg"), photo_12mp("living-furnished.jpg"));
    let signer = authority::make().expect("a signer of its own");
    let credentials =
        ContentCredentials::made_here(signer, "local-authority.pem".into(), "Virtual Staging AI").expect("credentials");
    let kind = Some(&VariationType::Staging);
    let keep_unsigned = || provenance::mark(result.clone().into(), kind).expect("marks");
    let made = Made {
        format: "image/jpeg",
        title: "0-url.jpg",
        source_type: provenance::source_type(kind),
        description: provenance::description(kind),
    };
    let keep_signed = || {
        let marked = keep_unsigned();
        credentials.sign(&marked, &made, Some(("image/jpeg", &original))).expect("signs")
    };
    let (unsigned_ms, signed_ms) = (median_ms(keep_unsigned), median_ms(keep_signed));
    let megabytes = result.len() as f64 / 1e6;
    println!(
        "{}",
        serde_json::json!({"figure": format!("keeping a 12 MP result ({megabytes:.1} MB), signed (reference: unsigned)"),
                           "ms": signed_ms, "reference_ms": unsigned_ms})
    );
    let signed = keep_signed();
    let read_ms = median_ms(|| credentials.verify(&signed, "image/jpeg", Some(&original)));
    println!(
        "{}",
        serde_json::json!({"figure": "reading its credentials back (the originals page, once)", "ms": read_ms})
    );
}

fn median_ms<T>(work: impl Fn() -> T) -> f64 {
    let mut times: Vec<f64> = (0..RUNS)
        .map(|_| {
            let started = Instant::now();
            std::hint::black_box(work());
            started.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[RUNS / 2]
}
