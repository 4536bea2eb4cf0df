//! What one request body costs `vstage serve` in memory: for the largest body each kind of call takes (a render, a
//! bulk call, v1's JSON, v1's form with a photo) and for one far over its cap, the growth of the server's peak
//! resident memory while it reads and refuses it, beside the body's size.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use anyhow::Context;

use super::Report;
use super::proxy_http::{memory_kib, start_serve};
use super::report::Measure;
use crate::project::Project;

/// Each body is sent this many times; the largest growth counts.
const TRIES: usize = 3;

pub fn measure(project: &Project, report: &mut Report) -> anyhow::Result<()> {
    // The allocator returns freed memory at once, so each try starts from what is in use.
    let serve = start_serve(project, &[], &[("MIMALLOC_PURGE_DELAY", "0")], "body-memory-data")?;
    std::thread::sleep(Duration::from_millis(500));
    for body in bodies()? {
        let mut growth = 0;
        for _ in 0..TRIES {
            growth = growth.max(peak_growth(serve.pid(), serve.addr(), &body)?);
        }
        report
            .add(
                format!("peak memory growth for {} (reference: the body's size)", body.what),
                Measure::bytes(growth),
                Some(Measure::bytes(body.bytes.len() as u64)),
            )
            .noise(super::proxy_http::MEMORY_NOISE);
    }
    Ok(())
}

/// One request to send: what it is, its path, content type and body.
struct Body {
    what: &'static str,
    path: &'static str,
    content_type: String,
    bytes: Vec<u8>,
}

/// The largest body of each kind, each read whole and then refused by the contract's rules (a count of 0, no
/// room type), so nothing reaches the sandbox; and a body over its cap.
fn bodies() -> anyhow::Result<Vec<Body>> {
    let json = |what, path, cap: usize, shape: fn(&str) -> String| {
        let empty = shape("").len();
        let padding = "a".repeat(cap - empty);
        Body { what, path, content_type: "application/json".into(), bytes: shape(&padding).into_bytes() }
    };
    let render = |padding: &str| {
        format!(
            r#"{{"image_url": "https://a.example/{padding}.jpg", "variation_count": 0, "config": {{"type": "enhancement"}}}}"#
        )
    };
    let bulk = |padding: &str| {
        let share = padding.len() / 25;
        let entry = |index: usize| {
            let part = &padding[index * share..(index + 1) * share + if index == 24 { padding.len() % 25 } else { 0 }];
            format!(
                r#"{{"image_url": "https://a.example/{part}.jpg", "variation_count": 0, "config": {{"type": "enhancement"}}}}"#
            )
        };
        format!(r#"{{"renders": [{}]}}"#, (0..25).map(entry).collect::<Vec<_>>().join(", "))
    };
    let v1 = |padding: &str| format!(r#"{{"image_url": "https://a.example/{padding}.jpg", "style": "modern"}}"#);
    let over = |padding: &str| format!("[{}0]", "0,".repeat(padding.len() / 2));
    let (form, content_type) = photo_form(26 * 1024 * 1024 - 1024)?;
    Ok(vec![
        json("a render (POST /v2/renders, 64 KiB)", "/api/v2/renders", 64 * 1024, render),
        json("a bulk call (POST /v2/renders/bulk, 512 KiB)", "/api/v2/renders/bulk", 512 * 1024, bulk),
        json("v1's JSON (POST /v1/render/create, 64 KiB)", "/api/v1/render/create", 64 * 1024, v1),
        Body {
            what: "v1's form with a photo and its metadata (26 MiB)",
            path: "/api/v1/render/create",
            content_type,
            bytes: form,
        },
        json("a 26 MiB JSON array where 64 KiB is the cap", "/api/v1/render/create", 26 * 1024 * 1024, over),
    ])
}

/// A form whose `file` is a PNG of one pixel carrying about `size` bytes of text metadata, which the server
/// strips; the whole body within v1's cap.
fn photo_form(size: usize) -> anyhow::Result<(Vec<u8>, String)> {
    let mut png = Vec::new();
    let mut encoder = png::Encoder::new(&mut png, 1, 1);
    encoder.set_color(png::ColorType::Rgb);
    encoder.add_text_chunk("Comment".into(), "m".repeat(size))?;
    encoder.write_header()?.write_image_data(&[200, 180, 160])?;
    let boundary = "vstage-bench-boundary";
    let mut form = format!(
        "--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"room.png\"\r\n\
         Content-Type: image/png\r\n\r\n"
    )
    .into_bytes();
    form.extend_from_slice(&png);
    form.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    Ok((form, format!("multipart/form-data; boundary={boundary}")))
}

/// How much the server's peak resident memory grows while it answers `body`, from what it holds before.
fn peak_growth(pid: u32, addr: &str, body: &Body) -> anyhow::Result<u64> {
    std::thread::sleep(Duration::from_millis(200));
    // Writing 5 sets the peak (`VmHWM`) back to what is resident now.
    std::fs::write(format!("/proc/{pid}/clear_refs"), "5").context("resetting the server's peak memory")?;
    let before = memory_kib(pid, "VmRSS")?;
    let status = send(addr, body)?;
    if !(400..500).contains(&status) {
        anyhow::bail!("{} was answered {status}, not refused", body.what);
    }
    let peak = memory_kib(pid, "VmHWM")?;
    Ok(peak.saturating_sub(before) * 1024)
}

/// The status of the answer to `body`, read even when the server stops reading the body early.
fn send(addr: &str, body: &Body) -> anyhow::Result<u16> {
    let mut stream = TcpStream::connect(addr)?;
    write!(
        stream,
        "POST {} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: {}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.path,
        body.content_type,
        body.bytes.len()
    )?;
    for chunk in body.bytes.chunks(256 * 1024) {
        if stream.write_all(chunk).is_err() {
            break;
        }
    }
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    let head = String::from_utf8_lossy(&answer[..answer.len().min(64)]).to_string();
    head.split_whitespace().nth(1).and_then(|code| code.parse().ok()).with_context(|| format!("no answer: {head:?}"))
}
