//! The imaging's figures on a 12-megapixel photo, side by side with ImageMagick doing the closest equivalent, each
//! as the whole file-to-file job (decode, process, encode) so both sides do the same work. Prints one JSON line
//! per figure (`{"figure", "ms", "reference_ms"}`) for `cargo xtask bench`; run with `cargo bench --bench imaging`.

use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

use image::imageops::FilterType;
use vstage_api::{RoomType, SkyStyle, Style};
use vstage_imaging::{self as imaging, Operation};

const RUNS: usize = 3;

fn main() {
    let folder = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("imaging-bench");
    std::fs::create_dir_all(&folder).expect("a scratch folder");
    let photo = folder.join("photo-12mp.jpg");
    let drawn = imaging::scenes::drawn("living-furnished.jpg").expect("the furnished sample");
    let large = image::imageops::resize(&drawn, 4000, 3000, FilterType::Triangle);
    large.save(&photo).expect("the 12-megapixel photo is written");
    let bytes = std::fs::read(&photo).expect("the photo reads back");
    let out = |name: &str| folder.join(name).display().to_string();
    let input = photo.display().to_string();

    let ours = |operation: Operation| {
        let bytes = bytes.clone();
        move || {
            let source = imaging::decode(&bytes).expect("decodes");
            let result = imaging::apply(&source, &operation, false);
            imaging::encode_full(&result).expect("encodes")
        }
    };
    figure(
        "enhancement (12 MP, file to file)",
        ours(Operation::Enhance),
        &[CONVERT, &input, "-auto-level", "-modulate", "100,125", "-unsharp", "0x1+0.6", &out("im-enhance.jpg")],
    );
    figure(
        "day to dusk (12 MP, file to file)",
        ours(Operation::Dusk { sky: SkyStyle::Golden }),
        &[CONVERT, &input, "-modulate", "55,90", "-fill", "#f0a050", "-colorize", "18%", &out("im-dusk.jpg")],
    );
    let thumbnail_bytes = bytes.clone();
    figure(
        "thumbnail, 400 px (12 MP, file to file)",
        move || {
            let source = imaging::decode(&thumbnail_bytes).expect("decodes");
            imaging::thumbnail(&source).expect("encodes")
        },
        &[CONVERT, &input, "-resize", "400x400", "-quality", "75", &out("im-thumbnail.jpg")],
    );
    let optimized_bytes = bytes.clone();
    figure(
        "optimized copy, 1280 px (12 MP, file to file)",
        move || {
            let source = imaging::decode(&optimized_bytes).expect("decodes");
            // one resize and one encoding, as ImageMagick does (a result usually fits its byte budget first time)
            imaging::optimized_copy(&source, usize::MAX).expect("encodes")
        },
        &[CONVERT, &input, "-resize", "1280x1280", "-quality", "70", &out("im-optimized.jpg")],
    );
    // whole variations: decode, process, the three outputs (no ImageMagick equivalent)
    for (name, operation) in [
        ("a staging variation", Operation::Stage { room_type: RoomType::Living, style: Style::Modern, seed: 7 }),
        ("a removal variation", Operation::Remove { mask: None }),
    ] {
        let bytes = bytes.clone();
        let ms = median_ms(|| {
            let source = imaging::decode(&bytes).expect("decodes");
            let result = imaging::apply(&source, &operation, true);
            imaging::encode(&result, None).expect("encodes").full
        });
        println!("{}", serde_json::json!({"figure": format!("{name}, whole (12 MP)"), "ms": ms}));
    }
}

/// ImageMagick's `convert` as Debian installs it (`cargo xtask setup`): a machine may have another program called
/// `convert` first on its PATH.
const CONVERT: &str = "/usr/bin/convert";

/// Times `ours` and the ImageMagick `command`, RUNS times each, and prints the medians.
fn figure(name: &str, ours: impl Fn() -> Vec<u8>, command: &[&str]) {
    let ms = median_ms(ours);
    let reference = median_ms(|| {
        let status = Command::new(command[0]).args(&command[1..]).status().expect("ImageMagick's convert runs");
        assert!(status.success(), "convert failed");
    });
    println!("{}", serde_json::json!({"figure": name, "ms": ms, "reference_ms": reference}));
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
