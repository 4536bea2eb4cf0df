//! The widget's files compressed once at build time, at the best levels, beside the originals (`x.wasm.br`,
//! `x.wasm.gz`): `vstage serve` sends them as they are instead of compressing each answer on the fly.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context;
use flate2::Compression;
use flate2::write::GzEncoder;

/// What compresses: text and wasm. Images are compressed already.
const COMPRESSIBLE: [&str; 6] = ["wasm", "js", "css", "html", "svg", "json"];

/// Writes `.br` and `.gz` beside every compressible file under `dist`, and says how much it saved.
pub fn precompress(dist: &Path) -> anyhow::Result<()> {
    let mut files = Vec::new();
    collect(dist, &mut files)?;
    precompress_files(&files)
}

/// Writes `.br` and `.gz` beside each of these files.
pub fn precompress_files(files: &[PathBuf]) -> anyhow::Result<()> {
    let (mut raw, mut brotli_total) = (0, 0);
    for file in files {
        let bytes = std::fs::read(file).with_context(|| format!("reading {}", file.display()))?;
        let br = brotli_best(&bytes)?;
        let gz = gzip_best(&bytes)?;
        raw += bytes.len();
        brotli_total += br.len();
        std::fs::write(sibling(file, "br"), br)?;
        std::fs::write(sibling(file, "gz"), gz)?;
    }
    println!("    precompressed {} files: {raw} bytes, {brotli_total} with brotli", files.len());
    Ok(())
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

/// gzip at its best compression (level 9, as `gzip -9`).
pub fn gzip_best(bytes: &[u8]) -> anyhow::Result<Vec<u8>> {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::best());
    encoder.write_all(bytes)?;
    Ok(encoder.finish()?)
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
