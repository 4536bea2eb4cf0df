//! Widget tokens minted by jose, the JWT library of Node backends, from the kit's packages (`kit/node_modules`,
//! installed by `cargo xtask setup`), with the snippet docs/embedding.md shows.

use std::process::Command;

/// The JWT that docs/embedding.md's jose snippet makes for `sub` and `aud` with `secret`.
pub fn sign(sub: &str, aud: &str, secret: &str) -> String {
    let kit = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../kit");
    let guide = std::fs::read_to_string(kit.join("../docs/embedding.md")).unwrap();
    let snippet = guide
        .split("```js\nimport { SignJWT } from \"jose\";\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("docs/embedding.md shows minting with jose");
    let snippet = snippet.replace("\"agent-7\"", "process.argv[1]").replace("\"https://your.site\"", "process.argv[2]");
    let script = format!("import {{ SignJWT }} from \"jose\";\n{snippet}console.log(token);\n");
    let output = Command::new("node")
        .args(["--input-type=module", "-e", &script, sub, aud])
        .env("VSTAGE_WIDGET_SECRET", secret)
        .current_dir(&kit)
        .output()
        .unwrap_or_else(|e| panic!("node runs (cargo xtask setup installs the kit's packages): {e}"));
    assert!(output.status.success(), "jose: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap().trim().to_string()
}
