//! Requests written byte for byte on a plain socket to a test server's loopback address, for what a client
//! library would not send or would stop reading: foreign `Host` names, declared lengths never sent, bodies the
//! server stops reading.

use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// A request sent byte for byte as written to `base` (`http://HOST:PORT`); the status and body of the answer.
pub async fn raw_http(base: &str, request: &str) -> (u16, String) {
    let mut stream =
        tokio::net::TcpStream::connect(base.trim_start_matches("http://")).await.expect("the server answers");
    stream.write_all(request.as_bytes()).await.expect("the server answers");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await.expect("the server answers");
    let status = answer.split_whitespace().nth(1).unwrap().parse().unwrap();
    (status, answer.split_once("\r\n\r\n").map(|(_, body)| body.to_string()).unwrap_or_default())
}

/// A JSON body posted over a plain socket, which goes on reading the answer when the server stops reading the
/// body (a client library would report the broken pipe instead); the status.
pub async fn post_raw(base: &str, path: &str, token: Option<&str>, body: &str) -> u16 {
    let address = base.trim_start_matches("http://");
    let mut stream = tokio::net::TcpStream::connect(address).await.expect("the server answers");
    let authorization = token.map(|token| format!("Authorization: Bearer {token}\r\n")).unwrap_or_default();
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: {address}\r\n{authorization}Content-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await.expect("the server answers");
    for chunk in body.as_bytes().chunks(64 * 1024) {
        if stream.write_all(chunk).await.is_err() {
            break;
        }
    }
    let mut answer = vec![0u8; 64];
    let read = stream.read(&mut answer).await.expect("the server answers");
    String::from_utf8_lossy(&answer[..read]).split_whitespace().nth(1).unwrap().parse().unwrap()
}
