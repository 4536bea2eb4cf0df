//! A sandbox on a free loopback port for one test, and a client for one of its accounts.

use tokio::net::TcpListener;
use vstage_api::transport::NativeTransport;
use vstage_api::{Auth, Client};
use vstage_sandbox::{RunningSandbox, SandboxConfig};

pub async fn sandbox(keys: &[&str]) -> RunningSandbox {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let config = SandboxConfig::new(keys.iter().map(|k| k.to_string()).collect());
    vstage_sandbox::spawn(listener, &config).unwrap()
}

pub fn client(sandbox: &RunningSandbox, key: &str) -> Client<NativeTransport> {
    Client::new(sandbox.base_url(), NativeTransport::default()).with_auth(Auth::ApiKey(key.to_string()))
}
