//! Clients that move too little, on raw sockets against a server on loopback: a body dripped a byte at a time is
//! answered 408 and its connection closed, and clients that leave a large answer unread give their places back,
//! whatever the whole time-outs (set far longer than the test here).

use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

use crate::testing::{Secrets, TestApp, widget_files};

/// How long the test waits for what must come before it fails.
const PATIENCE: Duration = Duration::from_secs(60);
/// The whole time-outs, far beyond the test: only the rate can end a transfer here.
const WHOLE_TIMEOUTS: [&str; 8] =
    ["--body-timeout-s", "600", "--upload-timeout-s", "600", "--send-timeout-s", "600", "--header-timeout-s", "600"];

#[tokio::test]
async fn a_body_dripped_a_byte_at_a_time_is_cut_off_for_its_rate() {
    let server = TestApp::start(&[&WHOLE_TIMEOUTS[..], &["--transfer-window-s", "1"]].concat()).await;
    // an upload, a call the proxy reads, the service's webhook receiver: every body is held to the rate
    for (path, content_type) in [
        ("/api/uploads", "image/jpeg"),
        ("/api/v2/renders", "application/json"),
        ("/api/webhooks/service", "text/plain"),
    ] {
        let answer = dripped(&server, path, content_type).await;
        assert!(answer.starts_with("HTTP/1.1 408"), "{path}: {answer}");
        assert!(answer.contains("fewer than 1024 bytes in 1 s"), "{path}: the answer says why: {answer}");
        let head = answer.to_ascii_lowercase();
        assert!(head.contains("connection: close"), "{path}: and the connection closes: {answer}");
        assert!(head.contains("x-request-id: "), "{path}: logged as the 408 it is, under its request id: {answer}");
    }
}

/// What the server answers to a body posted to `path` a byte every 100 ms, each in time for any wait between two
/// reads, until the server stops taking them; read until it closes the connection.
async fn dripped(server: &TestApp, path: &str, content_type: &str) -> String {
    let address = server.url.trim_start_matches("http://").to_string();
    let stream = TcpStream::connect(&address).await.unwrap();
    let (mut reading, mut writing) = stream.into_split();
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: {address}\r\nContent-Type: {content_type}\r\nContent-Length: 10000\r\n\r\n"
    );
    writing.write_all(head.as_bytes()).await.unwrap();
    let drip = tokio::spawn(async move {
        while writing.write_all(b"x").await.is_ok() {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    });
    let mut answer = Vec::new();
    let mut buffer = [0u8; 4096];
    loop {
        let read = tokio::time::timeout(PATIENCE, reading.read(&mut buffer)).await.expect("the server answers");
        match read {
            Ok(0) | Err(_) => break,
            Ok(count) => answer.extend_from_slice(&buffer[..count]),
        }
    }
    drip.abort();
    String::from_utf8_lossy(&answer).into_owned()
}

#[tokio::test]
async fn clients_that_read_no_answer_give_their_places_back_to_a_health_check() {
    const LARGE: usize = 32 << 20;
    let dist = widget_files();
    let mut wasm = b"\0asm\x01\0\0\0".to_vec();
    wasm.resize(LARGE, 0);
    std::fs::write(dist.path().join("vstage-widget-0123abcd_bg.wasm"), wasm).unwrap();
    let args = [&WHOLE_TIMEOUTS[..], &["--max-connections", "4", "--transfer-window-s", "1"]].concat();
    let server = TestApp::serving(dist, &args, Secrets::default()).await;
    let address = server.url.trim_start_matches("http://").to_string();

    // four clients ask for the large wasm and, once its answer has begun, read no more
    let mut stalled = Vec::new();
    for _ in 0..4 {
        let socket = TcpSocket::new_v4().unwrap();
        socket.set_recv_buffer_size(4096).unwrap();
        let mut stream = socket.connect(address.parse().unwrap()).await.unwrap();
        let request = format!("GET /vstage-widget-0123abcd_bg.wasm HTTP/1.1\r\nHost: {address}\r\n\r\n");
        stream.write_all(request.as_bytes()).await.unwrap();
        let mut status = [0u8; 12];
        tokio::time::timeout(PATIENCE, stream.read_exact(&mut status)).await.expect("served").unwrap();
        assert_eq!(&status, b"HTTP/1.1 200", "each holds one of the four places");
        stalled.push(stream);
    }

    // four health checks, each keeping its connection, are answered while the four still hold their ends open:
    // every stalled client gave its place back (reading one before it is cut would let its answer go on)
    let mut checks = Vec::new();
    for _ in 0..4 {
        let mut check = TcpStream::connect(&address).await.unwrap();
        let request = format!("GET /healthz HTTP/1.1\r\nHost: {address}\r\n\r\n");
        check.write_all(request.as_bytes()).await.unwrap();
        let mut status = [0u8; 12];
        tokio::time::timeout(PATIENCE, check.read_exact(&mut status))
            .await
            .expect("a health check is answered once a stalled client is cut off")
            .unwrap();
        assert_eq!(&status, b"HTTP/1.1 200");
        checks.push(check);
    }

    // each stalled client was cut off: what it finds waiting is less than the answer, then the end
    for mut stream in stalled {
        let (mut got, mut buffer) = (0, vec![0u8; 64 * 1024]);
        loop {
            let read = tokio::time::timeout(PATIENCE, stream.read(&mut buffer)).await.expect("the server closed it");
            match read {
                Ok(0) | Err(_) => break,
                Ok(count) => got += count,
            }
        }
        assert!(got < LARGE, "cut off before the whole answer: {got} bytes");
    }
}

#[tokio::test]
async fn a_client_that_keeps_up_is_never_cut_off_however_long_it_sits_between_requests() {
    const SIZE: usize = 8 << 20;
    let dist = widget_files();
    let mut wasm = b"\0asm\x01\0\0\0".to_vec();
    wasm.resize(SIZE, 7);
    std::fs::write(dist.path().join("vstage-widget-0123abcd_bg.wasm"), wasm).unwrap();
    // a window long enough for a busy machine to schedule a reading client within it
    let server =
        TestApp::serving(dist, &[&WHOLE_TIMEOUTS[..], &["--transfer-window-s", "5"]].concat(), Secrets::default())
            .await;
    let address = server.url.trim_start_matches("http://").to_string();
    let socket = TcpSocket::new_v4().unwrap();
    // a small buffer: the server's writes wait for this client's reads all along
    socket.set_recv_buffer_size(4096).unwrap();
    let mut stream = socket.connect(address.parse().unwrap()).await.unwrap();
    for round in 0..2 {
        let request = format!("GET /vstage-widget-0123abcd_bg.wasm HTTP/1.1\r\nHost: {address}\r\n\r\n");
        stream.write_all(request.as_bytes()).await.unwrap();
        let body = tokio::time::timeout(PATIENCE, read_answer(&mut stream)).await.expect("the answer comes");
        assert_eq!(body.len(), SIZE, "round {round}: the whole answer");
        // longer than a window, with nothing under way: no transfer waits, so nothing is counted
        tokio::time::sleep(Duration::from_secs(6)).await;
    }
}

#[tokio::test]
async fn a_steady_slow_reader_is_never_cut_off_while_its_bytes_wait_in_the_socket() {
    const SIZE: usize = 4 << 20;
    let dist = widget_files();
    let mut wasm = b"\0asm\x01\0\0\0".to_vec();
    wasm.resize(SIZE, 7);
    std::fs::write(dist.path().join("vstage-widget-0123abcd_bg.wasm"), wasm).unwrap();
    // The kernel wakes a waiting writer only once much of its (megabytes of) send buffer is free: far more than a
    // second's reading here. What the client took while the write waited is what counts, for the rate and for the
    // send time-out alike.
    let timeouts =
        ["--body-timeout-s", "600", "--header-timeout-s", "600", "--transfer-window-s", "1", "--send-timeout-s", "2"];
    let server = TestApp::serving(dist, &timeouts, Secrets::default()).await;
    let address = server.url.trim_start_matches("http://").to_string();
    let mut stream = TcpStream::connect(&address).await.unwrap();
    let request =
        format!("GET /vstage-widget-0123abcd_bg.wasm HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    // a phone on a slow line: 32 KiB every tenth of a second, some 300 KB/s, far above the least rate
    let (mut got, mut buffer) = (0, vec![0u8; 32 * 1024]);
    loop {
        let read = tokio::time::timeout(PATIENCE, stream.read(&mut buffer)).await.expect("the server answers");
        match read {
            Ok(0) | Err(_) => break,
            Ok(count) => got += count,
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(got > SIZE, "the whole answer, head and body: {got} bytes");
}

/// One answer with a `content-length`, read whole from `stream`: its body.
async fn read_answer(stream: &mut TcpStream) -> Vec<u8> {
    let mut read = Vec::new();
    let mut buffer = vec![0u8; 64 * 1024];
    let (head_end, length) = loop {
        let count = stream.read(&mut buffer).await.expect("the connection stays open");
        assert!(count > 0, "the server closed the connection: {}", String::from_utf8_lossy(&read));
        read.extend_from_slice(&buffer[..count]);
        if let Some(end) = read.windows(4).position(|window| window == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&read[..end]).to_ascii_lowercase();
            let length = head.lines().find_map(|line| line.strip_prefix("content-length: ")).expect("a length");
            break (end + 4, length.trim().parse::<usize>().unwrap());
        }
    };
    let mut body = read.split_off(head_end);
    while body.len() < length {
        let count = stream.read(&mut buffer).await.expect("the connection stays open");
        assert!(count > 0, "the server closed the connection after {} of {length} bytes", body.len());
        body.extend_from_slice(&buffer[..count]);
    }
    body
}

#[test]
fn one_machines_ipv6_addresses_share_its_places_under_the_per_address_cap() {
    let per_address = super::PerAddress { cap: crate::access::cap::Cap::new(1, 1), trusted_proxies: Arc::new([]) };
    let peer = |address: &str| std::net::SocketAddr::new(address.parse().unwrap(), 40000);
    let held = per_address.enter(&peer("2001:db8:1:2::1")).unwrap();
    assert!(per_address.enter(&peer("2001:db8:1:2::2")).is_err(), "another address of the same /64");
    assert!(per_address.enter(&peer("2001:db8:1:2:ffff::9")).is_err(), "and another");
    assert!(per_address.enter(&peer("2001:db8:1:3::1")).unwrap().is_some(), "another network has its own");
    drop(held);
    assert!(per_address.enter(&peer("2001:db8:1:2::2")).unwrap().is_some(), "a place given back is free again");
}
