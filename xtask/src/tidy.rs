//! Checks of the tree itself, run with the native tests as rust-analyzer's tidy is: every Rust source file opens
//! with a `//!` comment saying what it owns, every path that ARCHITECTURE.md names exists, nothing sends the
//! reader outside the repository, and the crates a build compiles stay within their budgets (#64).

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    /// The top-level folders and files a codemap path may start with; other code spans (`/api/...`, `text/plain`,
    /// `../...`) are not paths of this repository.
    const ROOTS: &[&str] = &[
        "src/",
        "crates/",
        "www/",
        "tests/",
        "xtask/",
        ".config/",
        ".ci/",
        "docs/",
        "deploy/",
        "Cargo.toml",
        "Cargo.lock",
        "README.md",
        "ARCHITECTURE.md",
        "webdriver.json",
        "rustfmt.toml",
    ];

    /// Folders with no source of ours.
    const SKIPPED: &[&str] = &["target", "dist", "node_modules", "fixtures"];

    fn root() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask is one folder below the root").to_path_buf()
    }

    /// The files under `dir` whose names end with `suffix`, our folders only.
    fn files(dir: &Path, suffix: &str, found: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if path.is_dir() {
                if !name.starts_with('.') && !SKIPPED.contains(&name.as_str()) {
                    files(&path, suffix, found);
                }
            } else if name.ends_with(suffix) {
                found.push(path);
            }
        }
    }

    /// The code spans of `text` that name a path of this repository.
    fn named_paths(text: &str) -> Vec<&str> {
        text.split('`')
            .skip(1)
            .step_by(2)
            .filter(|span| !span.contains(char::is_whitespace))
            .filter(|span| ROOTS.iter().any(|root| span.starts_with(root)))
            .collect()
    }

    #[test]
    fn every_source_file_says_what_it_owns() {
        let root = root();
        let mut files = Vec::new();
        for dir in ["src", "tests", "crates", "xtask"] {
            self::files(&root.join(dir), ".rs", &mut files);
        }
        for suffix in [".ts", ".tsx", ".mjs"] {
            self::files(&root.join("kit"), suffix, &mut files);
        }
        assert!(files.len() > 100, "the walk found only {} files", files.len());
        let silent: Vec<String> = files
            .iter()
            .filter(|file| !std::fs::read_to_string(file).is_ok_and(|text| text.starts_with("//!")))
            .map(|file| file.strip_prefix(&root).unwrap_or(file).display().to_string())
            .collect();
        assert!(silent.is_empty(), "these files do not open with a `//!` comment saying what they own: {silent:?}");
    }

    /// A clone has only this repository: nothing may send its reader to the material beside it.
    #[test]
    fn the_repository_stands_alone() {
        let root = root();
        let mut found = Vec::new();
        for suffix in [".rs", ".md", ".toml"] {
            self::files(&root, suffix, &mut found);
        }
        let outside = ["..", "shared"].join("/");
        let leaning: Vec<String> = found
            .iter()
            .filter(|file| std::fs::read_to_string(file).is_ok_and(|text| text.contains(&outside)))
            .map(|file| file.strip_prefix(&root).unwrap_or(file).display().to_string())
            .collect();
        assert!(leaning.is_empty(), "these files name material outside the repository: {leaning:?}");
    }

    /// The targets of the Markdown links and images in `text` that point into the repository, as a CommonMark
    /// renderer reads them (inline, reference and autolinks; nothing inside code): not web addresses, not anchors
    /// of the same page; without their own `#anchor`.
    fn relative_links(text: &str) -> Vec<String> {
        use pulldown_cmark::{Event, Parser, Tag};
        Parser::new(text)
            .filter_map(|event| match event {
                Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) => Some(dest_url),
                _ => None,
            })
            .map(|target| target.split('#').next().unwrap_or_default().to_string())
            .filter(|target| !target.is_empty() && !target.contains("://") && !target.starts_with("mailto:"))
            .collect()
    }

    /// The fenced code blocks of `text` that do not end where they seem to: one that no fence closes runs on
    /// to the end of the page, and a would-be closing fence with text after it (`` ``` More text``) is not one,
    /// so the block swallows what follows up to the next fence. Each is given by the line its fence opens on.
    fn unclosed_fences(text: &str) -> Vec<usize> {
        use pulldown_cmark::{CodeBlockKind, Event, Parser, Tag};
        Parser::new(text)
            .into_offset_iter()
            .filter_map(|(event, range)| match event {
                Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(_))) => Some(range),
                _ => None,
            })
            .filter(|range| {
                let lines: Vec<&str> = text[range.clone()].trim_end().lines().map(str::trim).collect();
                let opening = lines.first().copied().unwrap_or_default();
                let mark = opening.chars().next().unwrap_or('`');
                let fence = opening.chars().take_while(|c| *c == mark).count();
                let is_fence = |line: &str| line.len() >= fence && line.chars().all(|c| c == mark);
                let starts_as_fence = |line: &&str| line.chars().take_while(|c| *c == mark).count() >= fence;
                let closed = lines.len() > 1 && lines.last().is_some_and(|last| is_fence(last));
                let inner = &lines[1..lines.len().saturating_sub(usize::from(closed)).max(1)];
                !closed || inner.iter().any(starts_as_fence)
            })
            .map(|range| text[..range.start].lines().count() + 1)
            .collect()
    }

    /// Every fenced code block of the docs is closed where its author meant it to be.
    #[test]
    fn every_code_block_of_the_docs_is_closed() {
        let root = root();
        let mut documents = Vec::new();
        self::files(&root, ".md", &mut documents);
        let open: Vec<String> = documents
            .iter()
            .flat_map(|document| {
                let text = std::fs::read_to_string(document).unwrap_or_default();
                let named = document.strip_prefix(&root).unwrap_or(document).display().to_string();
                unclosed_fences(&text).into_iter().map(move |line| format!("{named}:{line}"))
            })
            .collect();
        assert!(
            open.is_empty(),
            "code blocks that run on to the end of their page (text after a closing fence?): {open:?}"
        );
    }

    #[test]
    fn a_fence_with_text_after_it_leaves_its_block_open() {
        assert_eq!(unclosed_fences("a\n\n```text\nb\n```\n\nc\n"), Vec::<usize>::new());
        assert_eq!(unclosed_fences("a\n\n```text\nb\n``` c\n\nd\n"), [3]);
        assert_eq!(unclosed_fences("```text\nb\n``` c\n\n```text\nd\n```\n"), [1]);
        assert_eq!(unclosed_fences("````md\n```rust\nx\n```\n````\n"), Vec::<usize>::new());
        assert_eq!(unclosed_fences("~~~\nb\n~~~~\n"), Vec::<usize>::new());
    }

    /// Every relative link and picture of the docs leads to a file of this repository: none climbs out of it
    /// (`../`), none is broken.
    #[test]
    fn every_link_of_the_docs_leads_to_a_file_here() {
        let root = root();
        let mut documents = Vec::new();
        self::files(&root, ".md", &mut documents);
        let mut broken = Vec::new();
        for document in &documents {
            let text = std::fs::read_to_string(document).unwrap_or_default();
            let folder = document.parent().unwrap_or(&root);
            for target in relative_links(&text) {
                // lexically, so that a link out of the repository fails even where such a file exists
                let mut resolved = folder.to_path_buf();
                for part in Path::new(&target).components() {
                    match part {
                        std::path::Component::ParentDir => drop(resolved.pop()),
                        std::path::Component::Normal(name) => resolved.push(name),
                        _ => {}
                    }
                }
                if !resolved.starts_with(&root) || !resolved.exists() {
                    let named_in = document.strip_prefix(&root).unwrap_or(document).display();
                    broken.push(format!("{named_in}: {target}"));
                }
            }
        }
        assert!(documents.len() > 5, "only {} documents found", documents.len());
        assert!(broken.is_empty(), "links that lead out of the repository or nowhere: {broken:?}");
    }

    #[test]
    fn links_are_read_as_markdown_writes_them() {
        let text = "[a](docs/a.md), ![b](images/b.png \"t\"), [c](#c), [d](https://x.example/d), [e](../e.md#part), \
                    `[f](f.md)` and [g][g]\n\n[g]: docs/g.md\n";
        assert_eq!(relative_links(text), ["docs/a.md", "images/b.png", "../e.md", "docs/g.md"]);
    }

    #[test]
    fn every_path_the_codemap_names_exists() {
        let root = root();
        let codemap = std::fs::read_to_string(root.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
        let named = named_paths(&codemap);
        assert!(named.len() > 50, "the codemap names only {} paths", named.len());
        let missing: Vec<&str> = named.into_iter().filter(|path| !root.join(path).exists()).collect();
        assert!(missing.is_empty(), "ARCHITECTURE.md names paths that do not exist: {missing:?}");
    }

    /// The most crates the server's first build compiles (`cargo xtask run`: its normal and build dependencies,
    /// without content credentials), 356 when set (was 451 with them).
    const SERVER_CRATES_BUDGET: usize = 400;
    /// The most packages the lock file holds, everything of the workspace's together (the widget's, xtask's, the
    /// tests'); 698 when set.
    const LOCK_FILE_BUDGET: usize = 720;

    /// The server built alone, as `cargo xtask run` and `dev` build it: its normal and build dependencies.
    const SERVER_ALONE: [&str; 4] = ["-p", "vstage-server", "-e", "normal,build"];

    /// `cargo tree` with `arguments` (the packages, the edges, the features): one line per package, with `format`,
    /// each once.
    fn tree(format: &str, arguments: &[&str]) -> std::collections::BTreeSet<String> {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let output = std::process::Command::new(cargo)
            .current_dir(root())
            .args(["tree", "--locked", "--prefix", "none", "-f", format])
            .args(arguments)
            .output()
            .expect("cargo tree runs");
        assert!(output.status.success(), "cargo tree: {}", String::from_utf8_lossy(&output.stderr));
        let text = String::from_utf8(output.stdout).expect("cargo tree writes UTF-8");
        text.lines().map(|line| line.trim_end_matches(" (*)").to_string()).filter(|line| !line.is_empty()).collect()
    }

    #[test]
    fn the_servers_first_build_and_the_lock_file_stay_within_their_crate_budgets() {
        let crates = tree("{p}", &SERVER_ALONE).len();
        assert!(
            crates <= SERVER_CRATES_BUDGET,
            "the server's first build (without content credentials) compiles {crates} crates, over its budget of \
             {SERVER_CRATES_BUDGET}: see what brought them (`cargo tree -p vstage-server -e normal,build -i CRATE`), \
             and put that behind a cargo feature that `cargo xtask test` and `dist` turn on (as `content-credentials` \
             is, crates/server/Cargo.toml), turn its default features off, or do without it; raise the budget \
             (xtask/src/tidy.rs) only with the crate's worth and cost in the commit"
        );
        let lock = std::fs::read_to_string(root().join("Cargo.lock")).expect("Cargo.lock");
        let packages = lock.lines().filter(|line| *line == "[[package]]").count();
        assert!(packages > 100, "only {packages} packages read from Cargo.lock");
        assert!(
            packages <= LOCK_FILE_BUDGET,
            "Cargo.lock holds {packages} packages, over its budget of {LOCK_FILE_BUDGET}: look for a second version of \
             a crate (`cargo tree -d`) or a new dependency's default features, and keep what is only for CI or a \
             release behind a feature; raise the budget (xtask/src/tidy.rs) only with the reason in the commit"
        );
    }

    /// Each package of a `cargo tree` with `arguments`, with each set of features it is built with (twice for one
    /// built for the build machine as well, for a build script or a proc-macro).
    fn features(arguments: &[&str]) -> std::collections::BTreeMap<String, Vec<String>> {
        let mut features = std::collections::BTreeMap::<String, Vec<String>>::new();
        for (package, set) in tree("{p}|{f}", arguments).iter().filter_map(|line| line.split_once('|')) {
            features.entry(package.to_string()).or_default().push(set.to_string());
        }
        features
    }

    /// The packages of `built` that `by` builds too, but with other features: the build `by` describes compiles
    /// them again, and everything above them. One that `by` also builds a second time, for the build machine, is
    /// not: that build is its own.
    fn compiled_again(
        built: &std::collections::BTreeMap<String, Vec<String>>,
        by: &std::collections::BTreeMap<String, Vec<String>>,
    ) -> Vec<String> {
        built
            .iter()
            .filter(|(package, _)| !package.starts_with("vstage-"))
            .filter_map(|(package, had)| {
                let has = by.get(package)?;
                had.iter().any(|set| !has.contains(set)).then(|| format!("{package}: {had:?}, then {has:?}"))
            })
            .collect()
    }

    /// Built with and without content credentials, the server's common dependencies have the same features: the
    /// first `cargo xtask run` and the `cargo xtask test` after it then share them, and only the feature's own
    /// crates compile in between.
    #[test]
    fn content_credentials_change_no_feature_of_the_crates_built_without_them() {
        let without = features(&SERVER_ALONE);
        let with = features(&[&SERVER_ALONE[..], &["--features", "content-credentials"]].concat());
        let changed = compiled_again(&without, &with);
        assert!(
            changed.is_empty(),
            "content credentials turn on features of crates the server builds without them, so that `cargo xtask \
             test` compiles them and all above them again after `cargo xtask run`: turn these on in the server's \
             own dependencies (crates/server/Cargo.toml, after c2pa): {changed:#?}"
        );
    }

    /// The server built alone with content credentials (`cargo xtask run` and `dev` after `cargo xtask test`, and
    /// the dev loop's test) finds every dependency as the tests' build of the server's crates compiled it, dev
    /// dependencies and all (xtask/src/test.rs, `SERVER_CRATES`): nothing compiles again.
    #[test]
    fn the_server_alone_builds_its_dependencies_as_the_tests_built_them() {
        let credentials = ["--features", "vstage-server/content-credentials"];
        let alone = features(&[&SERVER_ALONE[..], &credentials].concat());
        let packages = ["vstage-api", "vstage-imaging", "vstage-sandbox", "vstage-server", "vstage-postgres-cluster"];
        let mut tests: Vec<&str> = packages.iter().flat_map(|package| ["-p", package]).collect();
        tests.extend(["-e", "normal,build,dev"]);
        tests.extend(credentials);
        let changed = compiled_again(&alone, &features(&tests));
        assert!(
            changed.is_empty(),
            "the tests' build turns on features (through a dev-dependency) that the server built alone does not, so \
             that `cargo xtask run` or `dev` after `cargo xtask test` compiles them and all above them again: turn \
             them on in the server's own dependencies (crates/server/Cargo.toml): {changed:#?}"
        );
    }

    #[test]
    fn only_code_spans_that_name_paths_here_are_checked() {
        let text = "`src/app.rs` and `crates/server/src/proxy/`, not `/api/events`, `text/plain`, `a b/c` \
                    or `../outside/API.md`; `Cargo.toml` too";
        assert_eq!(named_paths(text), ["src/app.rs", "crates/server/src/proxy/", "Cargo.toml"]);
    }
}
