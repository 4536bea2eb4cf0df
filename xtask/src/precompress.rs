//! The widget's files compressed once at build time, at the best levels, beside the originals (`x.wasm.br`,
//! `x.wasm.gz`): `vstage serve` sends them as they are instead of compressing each answer on the fly.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context;

/// What compresses: text and wasm. Images are compressed already.
const COMPRESSIBLE: [&str; 6] = ["wasm", "js", "css", "html", "svg", "json"];

/// Writes `.br` and `.gz` beside every compressible file under `dist`, and says how much it saved.
pub fn precompress(dist: &Path) -> anyhow::Result<()> {
    let mut files = Vec::new();
    collect(dist, &mut files)?;
    precompress_files(&files)
}

/// Writes `.br` and `.gz` beside each of these files, on every core (the best levels are slow).
pub fn precompress_files(files: &[PathBuf]) -> anyhow::Result<()> {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let sizes: Vec<anyhow::Result<Vec<(usize, usize)>>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..cores)
            .map(|core| {
                scope.spawn(move || files.iter().skip(core).step_by(cores).map(|file| precompress_file(file)).collect())
            })
            .collect();
        workers
            .into_iter()
            .map(|worker| worker.join().unwrap_or_else(|_| Err(anyhow::anyhow!("compressing panicked"))))
            .collect()
    });
    let (mut raw, mut brotli_total) = (0, 0);
    for (file_raw, file_brotli) in sizes.into_iter().collect::<anyhow::Result<Vec<_>>>()?.into_iter().flatten() {
        raw += file_raw;
        brotli_total += file_brotli;
    }
    println!("    precompressed {} files: {raw} bytes, {brotli_total} with brotli", files.len());
    Ok(())
}

/// Writes `file`'s `.br` and `.gz`; its size and its brotli size.
fn precompress_file(file: &Path) -> anyhow::Result<(usize, usize)> {
    let bytes = std::fs::read(file).with_context(|| format!("reading {}", file.display()))?;
    let br = brotli_best(&bytes)?;
    std::fs::write(sibling(file, "gz"), gzip_best(&bytes)?)?;
    std::fs::write(sibling(file, "br"), &br)?;
    Ok((bytes.len(), br.len()))
}

fn collect(folder: &Path, files: &mut Vec<PathBuf>) -> anyhow::Result<()> {
    for entry in std::fs::read_dir(folder).with_context(|| format!("reading {}", folder.display()))? {
        let path = entry?.path();
        if path.is_dir() {
            collect(&path, files)?;
        } else if path.extension().and_then(|e| e.to_str()).is_some_and(|e| COMPRESSIBLE.contains(&e)) {
            files.push(path);
        }
    }
    Ok(())
}

fn sibling(file: &Path, encoding: &str) -> PathBuf {
    let mut name = file.as_os_str().to_owned();
    name.push(".");
    name.push(encoding);
    PathBuf::from(name)
}

/// Brotli at its best quality (11) with the largest window the format's default decoders take (22 bits).
pub fn brotli_best(bytes: &[u8]) -> anyhow::Result<Vec<u8>> {
    let mut out = Vec::new();
    {
        let mut writer = brotli::CompressorWriter::new(&mut out, 4096, 11, 22);
        writer.write_all(bytes)?;
    }
    Ok(out)
}

/// What `bytes` weigh as gzip level 9, quickly (a thousandth of a second for a small module, where Zopfli takes
/// a third of one): the chunk planner weighs a hundred and more modules (`chunk_groups.rs`).
pub fn gzip_size(bytes: &[u8]) -> anyhow::Result<u64> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    encoder.write_all(bytes)?;
    Ok(encoder.finish()?.len() as u64)
}

/// gzip at its best: Zopfli's encoder (any gzip decoder reads it) is 5 % smaller than `gzip -9` on the widget's
/// wasm (the main module: 164.4 KB to 155.7 KB). One iteration: fifteen, its default, gain 0.2 % for twice the time.
pub fn gzip_best(bytes: &[u8]) -> anyhow::Result<Vec<u8>> {
    let options = zopfli::Options { iteration_count: std::num::NonZeroU64::MIN, ..zopfli::Options::default() };
    let mut out = Vec::new();
    zopfli::compress(options, zopfli::Format::Gzip, bytes, &mut out)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use std::io::Read;

    use super::*;

    #[test]
    fn both_encodings_decode_to_the_original() {
        let original = b"vstage widget ".repeat(500);
        let mut decoded = Vec::new();
        brotli::Decompressor::new(&brotli_best(&original).unwrap()[..], 4096).read_to_end(&mut decoded).unwrap();
        assert_eq!(decoded, original);
        decoded.clear();
        flate2::read::GzDecoder::new(&gzip_best(&original).unwrap()[..]).read_to_end(&mut decoded).unwrap();
        assert_eq!(decoded, original);
    }

    #[test]
    fn siblings_keep_the_whole_name() {
        assert_eq!(sibling(Path::new("dist/a-01_bg.wasm"), "br"), Path::new("dist/a-01_bg.wasm.br"));
    }
}
