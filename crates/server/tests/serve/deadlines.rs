//! No client holds the server: over raw sockets, a client that stops reading loses its connection, one address
//! holds at most its share of connections (a trusted proxy excepted), and an upload dripped a byte at a time is
//! cut off whole with a 408. Each bound in the tests is a generous limit on failure, never a race.

use std::net::SocketAddr;
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

use crate::support::{Server, widget_dir};

/// How long a test waits for what must happen before it calls it a failure.
const FAILURE_AFTER: Duration = Duration::from_secs(60);

fn address_of(server: &Server) -> SocketAddr {
    server.url.trim_start_matches("http://").parse().unwrap()
}

/// A connection to `server` from the loopback address `from` (127.0.0.2 is another client on the same machine).
async fn connect_from(server: &Server, from: [u8; 4]) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(SocketAddr::from((from, 0))).unwrap();
    socket.connect(address_of(server)).await.unwrap()
}

/// The status line's code of the answer read from `stream`, or `None` when the server closed it without one.
async fn status_of(stream: &mut (impl AsyncRead + Unpin)) -> Option<u16> {
    let mut answer = Vec::new();
    let read = tokio::time::timeout(FAILURE_AFTER, async {
        let mut buffer = [0u8; 1024];
        while !answer.windows(4).any(|window| window == b"\r\n\r\n") {
            match stream.read(&mut buffer).await {
                Ok(0) | Err(_) => break,
                Ok(n) => answer.extend_from_slice(&buffer[..n]),
            }
        }
    });
    read.await.expect("the server answers or closes in time");
    String::from_utf8_lossy(&answer).split_whitespace().nth(1).and_then(|code| code.parse().ok())
}

async fn health_from(server: &Server, from: [u8; 4]) -> Option<u16> {
    let mut stream = connect_from(server, from).await;
    let request = format!("GET /healthz HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n", address_of(server));
    stream.write_all(request.as_bytes()).await.unwrap();
    status_of(&mut stream).await
}

#[tokio::test]
async fn a_client_that_stops_reading_loses_its_connection_and_others_are_served() {
    let dist = widget_dir();
    // Far more than any socket buffers: a file that does not compress, asked for again and again.
    let noise: Vec<u8> = (0..8u32 << 20).map(|n| (n.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
    std::fs::write(dist.path().join("noise.wasm"), noise).unwrap();
    let args = ["--max-connections", "1", "--send-timeout-s", "1", "--max-connections-per-address", "0"];
    let server = Server::start_with(dist.path(), &args, &[]).await;

    let socket = TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let mut never_reads = socket.connect(address_of(&server)).await.unwrap();
    let pipelined = format!("GET /noise.wasm HTTP/1.1\r\nHost: {}\r\n\r\n", address_of(&server)).repeat(12);
    never_reads.write_all(pipelined.as_bytes()).await.unwrap();

    // The only connection place is held until the server gives up on the reader.
    let answered = tokio::time::timeout(FAILURE_AFTER, health_from(&server, [127, 0, 0, 1])).await;
    assert_eq!(answered.expect("/healthz is answered once the reader is dropped"), Some(200));
    drop(never_reads);
}

#[tokio::test]
async fn one_address_holds_its_share_of_connections_and_a_trusted_proxy_more() {
    let dist = widget_dir();
    let capped = ["--max-connections-per-address", "2", "--header-timeout-s", "600"];
    let server = Server::start_with(dist.path(), &capped, &[]).await;
    let _held = [connect_from(&server, [127, 0, 0, 1]).await, connect_from(&server, [127, 0, 0, 1]).await];
    let mut third = connect_from(&server, [127, 0, 0, 1]).await;
    assert_eq!(status_of(&mut third).await, Some(429), "a third connection from one address is told and closed");
    assert_eq!(health_from(&server, [127, 0, 0, 2]).await, Some(200), "another address is served");

    let trusting = ["--max-connections-per-address", "1", "--trusted-proxy", "127.0.0.1", "--header-timeout-s", "600"];
    let behind_a_proxy = Server::start_with(dist.path(), &trusting, &[]).await;
    let _held = connect_from(&behind_a_proxy, [127, 0, 0, 1]).await;
    assert_eq!(health_from(&behind_a_proxy, [127, 0, 0, 1]).await, Some(200), "the proxy carries many clients");
}

#[tokio::test]
async fn an_upload_dripped_a_byte_at_a_time_is_cut_off_whole_with_a_408() {
    let dist = widget_dir();
    let server = Server::start_with(dist.path(), &["--upload-timeout-s", "2"], &[]).await;
    let mut stream = connect_from(&server, [127, 0, 0, 1]).await;
    let (mut reading, mut writing) = stream.split();
    let head = format!(
        "POST /api/uploads HTTP/1.1\r\nHost: {}\r\nContent-Type: image/png\r\nContent-Length: 1000\r\n\r\n",
        address_of(&server)
    );
    writing.write_all(head.as_bytes()).await.unwrap();
    // The attack: each byte well within any between-parts time-out, the whole never within the deadline.
    let dripping = async {
        for _ in 0..1000 {
            if writing.write_all(b"x").await.is_err() {
                return;
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        panic!("the whole body was taken, a byte every 200 ms");
    };
    let status = tokio::select! {
        () = dripping => None,
        status = status_of(&mut reading) => status,
    };
    assert_eq!(status, Some(408));
}
