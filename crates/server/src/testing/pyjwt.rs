//! Widget tokens minted by PyJWT, the JWT library of Python backends, from the venv `cargo xtask setup` makes
//! (`target/tools/pyjwt`, or `VSTAGE_PYJWT_PYTHON`): what a listing site's backend would send, made by code that
//! is not ours.

use std::process::Command;

use serde_json::Value;

/// `jwt.encode(claims, secret, algorithm)` as PyJWT does it; each claim's value is Python's own (`exp` as
/// `time.time() + N` is a float, as a careless backend sends it).
pub fn encode(claims: &Value, secret: &str, algorithm: &str) -> String {
    let python = std::env::var("VSTAGE_PYJWT_PYTHON").unwrap_or_else(|_| {
        let tools = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/tools");
        tools.join("pyjwt/bin/python").display().to_string()
    });
    let script =
        "import json, sys, jwt\nprint(jwt.encode(json.loads(sys.argv[1]), sys.argv[2], algorithm=sys.argv[3]))";
    let output = Command::new(&python)
        .args(["-c", script, &claims.to_string(), secret, algorithm])
        .output()
        .unwrap_or_else(|e| panic!("{python} runs (cargo xtask setup installs PyJWT): {e}"));
    assert!(output.status.success(), "PyJWT: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap().trim().to_string()
}
