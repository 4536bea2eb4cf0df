//! nginx as the load balancer in front of several `vstage serve`, configured with the block of
//! `docs/server.md` (its "Several servers behind a load balancer" section), so the configuration people copy is the one the tests run.

use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use tokio::process::{Child, Command};

pub struct Balancer {
    process: Child,
    dir: tempfile::TempDir,
}

impl Balancer {
    /// nginx on `127.0.0.1:port`, balancing over the servers on `backends` (loopback ports) as `docs/server.md` says.
    pub async fn start(port: u16, backends: [u16; 2]) -> Balancer {
        let block = guide_block()
            .replacen("server 10.0.0.11:8080 ", &format!("server 127.0.0.1:{} ", backends[0]), 1)
            .replacen("server 10.0.0.12:8080 ", &format!("server 127.0.0.1:{} ", backends[1]), 1)
            .replacen("listen 80;", &format!("listen 127.0.0.1:{port};"), 1);
        let dir = tempfile::tempdir().unwrap();
        let block = block
            .replacen(
                "access_log /var/log/nginx/vstage.access.log ",
                &format!("access_log {} ", dir.path().join("access.log").display()),
                1,
            )
            .replacen(
                "error_log /var/log/nginx/vstage.error.log ",
                &format!("error_log {} ", dir.path().join("vstage.error.log").display()),
                1,
            );
        assert!(
            !block.contains("10.0.0.") && !block.contains("listen 80;") && !block.contains("/var/log/"),
            "docs/server.md's block changed:\n{block}"
        );
        let d = dir.path().display();
        let config = format!(
            "daemon off;\npid {d}/nginx.pid;\nerror_log {d}/error.log warn;\nevents {{ worker_connections 1024; }}\n\
             http {{\n  access_log off;\n  client_body_temp_path {d}/body;\n  proxy_temp_path {d}/proxy;\n\
             fastcgi_temp_path {d}/fastcgi;\n  uwsgi_temp_path {d}/uwsgi;\n  scgi_temp_path {d}/scgi;\n{block}\n}}\n"
        );
        let path = dir.path().join("nginx.conf");
        std::fs::write(&path, config).unwrap();
        let binary = std::env::var_os("VSTAGE_NGINX").map_or_else(|| PathBuf::from("/usr/sbin/nginx"), PathBuf::from);
        assert!(binary.is_file(), "no nginx at {}; run `cargo xtask setup`", binary.display());
        let process = Command::new(&binary)
            .arg("-p")
            .arg(dir.path())
            .arg("-c")
            .arg(&path)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|error| panic!("cannot start {}: {error}", binary.display()));
        let address = format!("127.0.0.1:{port}");
        for _ in 0..200 {
            if tokio::net::TcpStream::connect(&address).await.is_ok() {
                return Balancer { process, dir };
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        let log = std::fs::read_to_string(dir.path().join("error.log")).unwrap_or_default();
        panic!("nginx did not start on {address}:\n{log}");
    }

    /// Stops nginx, waits until it has, and reads its access log (written whole by then).
    pub async fn stop(mut self) -> String {
        if let Some(pid) = self.process.id() {
            let _ = std::process::Command::new("kill").args(["-TERM", &pid.to_string()]).status();
        }
        let _ = self.process.wait().await;
        std::fs::read_to_string(self.dir.path().join("access.log")).unwrap_or_default()
    }
}

impl Drop for Balancer {
    /// nginx's fast shutdown (SIGTERM to the master), which stops its workers too.
    fn drop(&mut self) {
        if let Some(pid) = self.process.id() {
            let _ = std::process::Command::new("kill").args(["-TERM", &pid.to_string()]).status();
        }
    }
}

/// The nginx block of `docs/server.md`, the one after "Several servers".
fn guide_block() -> String {
    let guide = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/server.md")).unwrap();
    let section = guide.split("## Several servers").nth(1).expect("docs/server.md has a \"Several servers\" section");
    let block = section.split("```nginx\n").nth(1).expect("with an nginx block");
    block.split("```").next().unwrap().to_string()
}
