//! The optional configuration file (`--config PATH` or `VSTAGE_CONFIG`): TOML whose keys are `vstage serve`'s long
//! flags (`listen = "127.0.0.1:8080"`, `host-webhook-url = ["https://..."]`, `set-webhook-secret = true`).
//!
//! What it says becomes the options' defaults, so clap's own order stands: the command line, then the environment,
//! then the file, then the built-in default. Every key is checked before anything starts, each refusal a sentence
//! naming the file, its line and the key: a key that is no option, a value of the wrong TOML type (a number in
//! quotes, one value for a list), a value the option's own parser refuses. Secrets are refused in the file: they
//! belong in the environment (an `EnvironmentFile` or a container secret, readable by the service alone), while a
//! configuration file is made to be read, copied and kept in version control.

use std::any::TypeId;
use std::ffi::OsString;
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};

use clap::{ArgAction, ArgMatches, CommandFactory, FromArgMatches};
use toml::Spanned;
use toml::de::{DeTable, DeValue};

use crate::cli::{Cli, Command};

/// Why the command line was not taken.
#[derive(Debug)]
pub enum Refusal {
    /// clap's own (a flag unknown, a value refused, or `--help` asked for), which prints and exits itself.
    CommandLine(clap::Error),
    /// A setting's: the configuration file's or a variable's, a sentence for the operator.
    Setting(String),
}

/// The secrets an operator might write into the file, and where each belongs instead.
const SECRETS: &[(&str, &str)] = &[
    ("api-key", "VSTAGE_API_KEY"),
    ("widget-secret", "VSTAGE_WIDGET_SECRET"),
    ("webhook-secret", "VSTAGE_WEBHOOK_SECRET"),
    ("host-webhook-secret", "VSTAGE_HOST_WEBHOOK_SECRET"),
];

/// The subcommand whose options the file holds.
const SERVE: &str = "serve";

/// The command line `args` (the program's name first) read with the configuration file it names, if any.
pub fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Cli, Refusal> {
    let args: Vec<OsString> = args.into_iter().collect();
    let command = Cli::command();
    let first = command.clone().try_get_matches_from(&args).map_err(|error| named(error, &command, &args))?;
    refuse_a_password_on_the_command_line(&first)?;
    let (Some(path), Some(subcommand)) = (config_path(&first), first.subcommand_name().map(str::to_string)) else {
        return Cli::from_arg_matches(&first).map_err(Refusal::CommandLine);
    };
    if matches!(subcommand.as_str(), "sandbox" | "token") {
        return Cli::from_arg_matches(&first).map_err(Refusal::CommandLine);
    }
    let settings = read(&path, &command)?;
    let with_the_file = as_defaults(command.clone(), &subcommand, &settings);
    let matches = with_the_file.try_get_matches_from(&args).map_err(|error| named(error, &command, &args))?;
    let cli = Cli::from_arg_matches(&matches).map_err(Refusal::CommandLine)?;
    pairs_complete(&cli, &path)?;
    Ok(cli)
}

/// clap's refusal of a value, with the variable it came from when it came from one (clap names the flag only).
fn named(error: clap::Error, command: &clap::Command, args: &[OsString]) -> Refusal {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if !matches!(error.kind(), ErrorKind::InvalidValue | ErrorKind::ValueValidation) {
        return Refusal::CommandLine(error);
    }
    let Some(ContextValue::String(refused)) = error.get(ContextKind::InvalidArg) else {
        return Refusal::CommandLine(error);
    };
    let Some(flag) = refused.split_whitespace().next().and_then(|flag| flag.strip_prefix("--")) else {
        return Refusal::CommandLine(error);
    };
    let given = args.iter().any(|arg| {
        arg.to_str().is_some_and(|arg| arg == format!("--{flag}") || arg.starts_with(&format!("--{flag}=")))
    });
    // Several commands' options share a flag (serve's and the sandbox's `--listen`): the variable is the one
    // that holds the value refused.
    let value = match error.get(ContextKind::InvalidValue) {
        Some(ContextValue::String(value)) => Some(value.clone()),
        _ => None,
    };
    let variables: Vec<String> = std::iter::once(command)
        .chain(command.get_subcommands())
        .chain(command.get_subcommands().flat_map(clap::Command::get_subcommands))
        .flat_map(clap::Command::get_arguments)
        .filter(|arg| arg.get_long() == Some(flag))
        .filter_map(|arg| arg.get_env().map(|name| name.to_string_lossy().into_owned()))
        .filter(|name| std::env::var_os(name).is_some())
        .collect();
    let holds_it = |name: &&String| value.is_some() && std::env::var(name.as_str()).ok() == value;
    let variable = variables.iter().find(holds_it).or(variables.first());
    match variable {
        Some(variable) if !given => Refusal::Setting(format!("the variable {variable}: {}", sentence(&error))),
        _ => Refusal::CommandLine(error),
    }
}

/// Refuses `--database` with a password written on the command line, which every process list shows.
fn refuse_a_password_on_the_command_line(matches: &ArgMatches) -> Result<(), Refusal> {
    let mut level = Some(matches);
    while let Some(matches) = level {
        // (read only where the command has the option: `value_source` asks for one it knows)
        let given = matches.try_get_one::<String>("database").ok().flatten();
        let on_the_line = || matches.value_source("database") == Some(clap::parser::ValueSource::CommandLine);
        if given.is_some_and(|url| carries_a_password(url)) && on_the_line() {
            return Err(Refusal::Setting(
                "--database carries a password, which process lists show: give the URL in VSTAGE_DATABASE_URL \
                 instead (in the service's environment file)"
                    .into(),
            ));
        }
        level = matches.subcommand().map(|(_, sub)| sub);
    }
    Ok(())
}

/// `--config`'s path, wherever on the command line it was given (it is global).
fn config_path(matches: &ArgMatches) -> Option<PathBuf> {
    let mut level = Some(matches);
    let mut found = None;
    while let Some(matches) = level {
        if let Ok(Some(path)) = matches.try_get_one::<PathBuf>("config") {
            found = Some(path.clone());
        }
        level = matches.subcommand().map(|(_, sub)| sub);
    }
    found
}

/// One key of the file, checked: the option's id and its values as the command line would give them.
#[derive(Debug, Clone, PartialEq)]
struct Setting {
    key: String,
    id: String,
    /// Whether the option is the top level's (`log-format`), not serve's.
    global: bool,
    values: Vec<String>,
}

/// Reads and checks the file at `path` against `command`'s options.
fn read(path: &Path, command: &clap::Command) -> Result<Vec<Setting>, Refusal> {
    let text = std::fs::read_to_string(path).map_err(|error| {
        Refusal::Setting(format!(
            "cannot read the configuration file {} (--config or VSTAGE_CONFIG): {error}",
            path.display()
        ))
    })?;
    settings(&text, command).map_err(|refused| Refusal::Setting(refused.said_of(path)))
}

/// A refusal of one place in the file, before the file's name is put to it.
#[derive(Debug, PartialEq)]
struct Refused {
    /// 1-based.
    line: usize,
    sentence: String,
}

impl Refused {
    fn at(text: &str, offset: usize, sentence: String) -> Refused {
        let line = text.get(..offset).map_or(1, |before| before.matches('\n').count() + 1);
        Refused { line, sentence }
    }

    fn said_of(&self, path: &Path) -> String {
        format!("the configuration file {}, line {}: {}", path.display(), self.line, self.sentence)
    }
}

/// The file's settings, each checked against the option it names in `command`: at the top, or in the table of
/// the option's group (`[storage]`, as `vstage serve --help` heads it: "Storage").
fn settings(text: &str, command: &clap::Command) -> Result<Vec<Setting>, Refused> {
    let table = DeTable::parse(text).map_err(|error| {
        let offset = error.span().map_or(0, |span| span.start);
        Refused::at(text, offset, format!("this is not TOML: {}", error.message()))
    })?;
    let serve = command.find_subcommand(SERVE).expect("vstage has a serve command");
    let mut entries = Vec::new();
    for (key, value) in table.get_ref() {
        match value.get_ref() {
            DeValue::Table(inner) => {
                let group = key.get_ref().as_ref();
                if !serve.get_arguments().any(|arg| heading_key(arg).as_deref() == Some(group)) {
                    return Err(Refused::at(
                        text,
                        key.span().start,
                        format!(
                            "`[{group}]` is no group of serve's options; the groups are {}",
                            group_keys(serve).join(", ")
                        ),
                    ));
                }
                entries.extend(inner.iter().map(|(key, value)| (key, value, Some(group))));
            }
            _ => entries.push((key, value, None)),
        }
    }
    // in the file's order, so that the first refusal is the first wrong line
    entries.sort_by_key(|(key, ..)| key.span().start);
    entries.into_iter().map(|(key, value, group)| setting(text, command, serve, (key, value), group)).collect()
}

/// One key of the file, in the table of `group` if it is in one.
fn setting(
    text: &str,
    command: &clap::Command,
    serve: &clap::Command,
    (key, value): (&Spanned<std::borrow::Cow<'_, str>>, &Spanned<DeValue<'_>>),
    group: Option<&str>,
) -> Result<Setting, Refused> {
    let at = |sentence: String| Refused::at(text, key.span().start, sentence);
    let name = key.get_ref().as_ref();
    if let DeValue::Table(_) = value.get_ref() {
        return Err(at(format!("`[{name}]` is a table inside a table: write each option as `key = value`")));
    }
    let (arg, global) = option(command, serve, name).map_err(at)?;
    if let Some(group) = group.filter(|group| heading_key(arg).as_deref() != Some(*group)) {
        let home = heading_key(arg).map_or("at the top".to_string(), |home| format!("in `[{home}]`"));
        return Err(at(format!("`{name}` is not one of `[{group}]`'s options: write it {home}")));
    }
    let values = values_of(arg, name, value).map_err(|sentence| Refused::at(text, value.span().start, sentence))?;
    for given in &values {
        accepted(arg, name, given).map_err(|sentence| Refused::at(text, value.span().start, sentence))?;
    }
    if name == "database" && values.first().is_some_and(|url| carries_a_password(url)) {
        return Err(at("`database` carries a password, and secrets are not kept in this file: give the URL in \
                       VSTAGE_DATABASE_URL, in the service's environment, and take the key out"
            .to_string()));
    }
    Ok(Setting { key: name.to_string(), id: arg.get_id().to_string(), global, values })
}

/// The table an option may be written in: its `--help` heading in lower case, words joined by `-` ("Time-outs"
/// is `[time-outs]`, "Host webhooks" `[host-webhooks]`); `None` for an option under no heading.
fn heading_key(arg: &clap::Arg) -> Option<String> {
    arg.get_help_heading().map(|heading| heading.to_lowercase().replace(' ', "-"))
}

/// Every group's table name, in `--help`'s order.
fn group_keys(serve: &clap::Command) -> Vec<String> {
    let mut keys: Vec<String> = Vec::new();
    for key in serve.get_arguments().filter_map(heading_key) {
        if !keys.contains(&key) {
            keys.push(key);
        }
    }
    keys.iter().map(|key| format!("`[{key}]`")).collect()
}

/// The option `name` names: serve's, or the top level's (`log-format`); whether it is the latter.
fn option<'c>(
    command: &'c clap::Command,
    serve: &'c clap::Command,
    name: &str,
) -> Result<(&'c clap::Arg, bool), String> {
    let long = |arg: &&clap::Arg| arg.get_long() == Some(name);
    if name == "config" {
        return Err("`config` names this file, and one file cannot name another".to_string());
    }
    if let Some(arg) = serve.get_arguments().find(long) {
        return Ok((arg, false));
    }
    if let Some(arg) = command.get_arguments().find(long) {
        return Ok((arg, true));
    }
    let spelled = name.to_ascii_lowercase();
    let spelled = spelled.strip_prefix("vstage_").unwrap_or(&spelled).replace('_', "-");
    if let Some((secret, variable)) = SECRETS.iter().find(|(secret, _)| *secret == spelled) {
        return Err(format!(
            "`{name}` is a secret, and secrets are not kept in this file: set {variable} in the service's environment \
             (an EnvironmentFile or a container secret, readable by the service alone) and take `{secret}` out"
        ));
    }
    if spelled != name
        && (serve.get_arguments().chain(command.get_arguments())).any(|arg| arg.get_long() == Some(&spelled))
    {
        return Err(format!("`{name}` is spelled as its flag in this file: write `{spelled}`"));
    }
    Err(format!(
        "`{name}` is not an option of vstage serve; the keys are serve's long flags without `--` (`vstage serve \
         --help` lists them)"
    ))
}

/// What an option takes, as TOML types go.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Shape {
    /// `true` or `false`: a flag.
    Flag,
    /// An integer.
    Number,
    /// A string.
    Text,
}

impl Shape {
    fn of(arg: &clap::Arg) -> Shape {
        if matches!(arg.get_action(), ArgAction::SetTrue) {
            return Shape::Flag;
        }
        let numbers = [
            TypeId::of::<u8>(),
            TypeId::of::<u16>(),
            TypeId::of::<u32>(),
            TypeId::of::<u64>(),
            TypeId::of::<usize>(),
            TypeId::of::<i64>(),
            TypeId::of::<NonZeroUsize>(),
        ];
        let parsed = arg.get_value_parser().type_id();
        if numbers.iter().any(|number| parsed == *number) { Shape::Number } else { Shape::Text }
    }

    fn example(self, key: &str) -> String {
        match self {
            Shape::Flag => format!("{key} = true"),
            Shape::Number => format!("{key} = 30"),
            Shape::Text => format!("{key} = \"...\""),
        }
    }

    /// `value` as the command line would give it, when it is of this shape.
    fn text_of(self, value: &DeValue<'_>) -> Option<String> {
        match (self, value) {
            (Shape::Flag, DeValue::Boolean(flag)) => Some(flag.to_string()),
            (Shape::Number, DeValue::Integer(number)) => {
                i128::from_str_radix(number.as_str(), number.radix()).ok().map(|number| number.to_string())
            }
            (Shape::Text, DeValue::String(text)) => Some(text.to_string()),
            _ => None,
        }
    }
}

/// The values `value` gives the option `arg` (a list for a repeatable one), when its TOML type is the option's.
fn values_of(arg: &clap::Arg, key: &str, value: &Spanned<DeValue<'_>>) -> Result<Vec<String>, String> {
    let shape = Shape::of(arg);
    let list = matches!(arg.get_action(), ArgAction::Append);
    let kind = |value: &DeValue<'_>| match value {
        DeValue::String(_) => "a string",
        DeValue::Integer(_) => "an integer",
        DeValue::Float(_) => "a fraction",
        DeValue::Boolean(_) => "true or false",
        DeValue::Datetime(_) => "a date",
        DeValue::Array(_) => "a list",
        DeValue::Table(_) => "a table",
    };
    match value.get_ref() {
        DeValue::Array(items) if list => items
            .iter()
            .map(|item| {
                shape.text_of(item.get_ref()).ok_or_else(|| {
                    format!(
                        "`{key}` takes a list of {}, not {}: {key} = [\"...\"]",
                        shape.plural(),
                        kind(item.get_ref())
                    )
                })
            })
            .collect(),
        other if list => Err(format!("`{key}` takes a list, even of one, not {}: {key} = [\"...\"]", kind(other))),
        other => shape
            .text_of(other)
            .map(|text| vec![text])
            .ok_or_else(|| format!("`{key}` takes {}, not {}: {}", shape.one(), kind(other), shape.example(key))),
    }
}

impl Shape {
    fn one(self) -> &'static str {
        match self {
            Shape::Flag => "true or false",
            Shape::Number => "a number (without quotes)",
            Shape::Text => "a string (in quotes)",
        }
    }

    fn plural(self) -> &'static str {
        match self {
            Shape::Flag => "true or false",
            Shape::Number => "numbers",
            Shape::Text => "strings",
        }
    }
}

/// Whether the option's own parser takes `given`: the sentence it refuses it with otherwise.
fn accepted(arg: &clap::Arg, key: &str, given: &str) -> Result<(), String> {
    if matches!(arg.get_action(), ArgAction::SetTrue) {
        return Ok(());
    }
    let alone = clap::Command::new("vstage").no_binary_name(true).color(clap::ColorChoice::Never).arg(
        clap::Arg::new("value")
            .long(key.to_string())
            .value_name(key.to_uppercase().replace('-', "_"))
            .value_parser(arg.get_value_parser().clone())
            .action(ArgAction::Set),
    );
    // one word, so that a value that starts with `-` is the value, not a flag
    match alone.try_get_matches_from([format!("--{key}={given}")]) {
        Ok(_) => Ok(()),
        Err(error) => Err(format!("`{key}` is refused: {}", sentence(&error))),
    }
}

/// clap's sentence and its list of possible values on one line, without its advice to try --help.
fn sentence(error: &clap::Error) -> String {
    let said = error.to_string();
    let said: Vec<&str> = said.lines().map(str::trim).take_while(|line| !line.is_empty()).collect();
    said.join(" ").trim_start_matches("error: ").to_string()
}

/// Whether a PostgreSQL URL (or key=value string) names a password.
fn carries_a_password(url: &str) -> bool {
    url.parse::<tokio_postgres::Config>().is_ok_and(|config| config.get_password().is_some())
}

/// `command` with `settings` as its options' defaults: serve's (or check's, which are the same) for those
/// commands, and for the database's commands the options they share with serve (`data-dir`, `database`).
fn as_defaults(command: clap::Command, subcommand: &str, settings: &[Setting]) -> clap::Command {
    let mut command = command;
    for setting in settings {
        let values = setting.values.clone();
        if setting.global {
            command = command.mut_arg(&setting.id, |arg| arg.default_values(values));
            continue;
        }
        let has_it = command
            .find_subcommand(subcommand)
            .is_some_and(|sub| sub.get_arguments().any(|arg| arg.get_long() == Some(setting.key.as_str())));
        if has_it {
            let key = setting.key.clone();
            command = command.mut_subcommand(subcommand, |sub| {
                let id = sub
                    .get_arguments()
                    .find(|arg| arg.get_long() == Some(key.as_str()))
                    .map(|arg| arg.get_id().clone());
                match id {
                    Some(id) => sub.mut_arg(id, |arg| arg.default_values(values)),
                    None => sub,
                }
            });
        }
    }
    command
}

/// Options that go together (clap's `requires`, which a default does not trigger): one given by the file alone.
fn pairs_complete(cli: &Cli, path: &Path) -> Result<(), Refusal> {
    let (Command::Serve(args) | Command::Check(args)) = &cli.command else { return Ok(()) };
    if args.results.c2pa_cert.is_some() != args.results.c2pa_key.is_some() {
        return Err(Refusal::Setting(format!(
            "with the configuration file {}: `c2pa-cert` and `c2pa-key` go together (the certificate chain and its \
             key); give both, in the file, the environment or on the command line",
            path.display()
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::ffi::OsString;
    use std::time::Duration;

    use super::{Refusal, parse};
    use crate::cli::{AccessMode, Cli, Command, LogFormat, ServeArgs};

    /// `text` as a configuration file, and the command line `args` with `--config` naming it.
    fn with_file(text: &str, args: &[&str]) -> Result<Cli, Refusal> {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("vstage.toml");
        std::fs::write(&path, text).unwrap();
        let mut line: Vec<OsString> = ["vstage"].iter().chain(args).map(OsString::from).collect();
        line.extend([OsString::from("--config"), path.into_os_string()]);
        parse(line)
    }

    fn serve(cli: Cli) -> ServeArgs {
        match cli.command {
            Command::Serve(args) | Command::Check(args) => *args,
            other => panic!("not serve: {other:?}"),
        }
    }

    /// The sentence a refused file gets.
    fn refused(text: &str) -> String {
        match with_file(text, &["serve"]) {
            Err(Refusal::Setting(sentence)) => sentence,
            Ok(_) => panic!("taken: {text}"),
            Err(Refusal::CommandLine(error)) => panic!("refused by clap, not by the file's check: {error}"),
        }
    }

    const FILE: &str = r#"# a deployment's settings
listen = "127.0.0.1:9100"
access = "token"
rate-limit = 120
upload-retention = "2d"
set-webhook-secret = true
host-webhook-url = ["https://backend.example/hooks", "https://audit.example/hooks"]
trusted-proxy = ["10.0.0.2"]
workers = 3
log-format = "json"
"#;

    #[test]
    fn a_file_alone_sets_serve_s_options() {
        let cli = with_file(FILE, &["serve"]).unwrap();
        assert_eq!(cli.log_format, LogFormat::Json);
        let args = serve(cli);
        assert_eq!(args.serving.listen.to_string(), "127.0.0.1:9100");
        assert_eq!(args.access.access, AccessMode::Token);
        assert_eq!(args.access.rate_limit, 120);
        assert_eq!(args.storage.upload_retention, Duration::from_secs(2 * 24 * 3600));
        assert!(args.service.set_webhook_secret);
        assert_eq!(
            args.host_webhooks.host_webhook_urls,
            ["https://backend.example/hooks", "https://audit.example/hooks"]
        );
        assert_eq!(args.access.trusted_proxies, ["10.0.0.2".parse::<std::net::IpAddr>().unwrap()]);
        assert_eq!(args.serving.workers.map(usize::from), Some(3));
        assert_eq!(args.access.max_in_flight, 32, "what the file leaves out keeps its default");
    }

    #[test]
    fn check_reads_the_same_file_and_the_command_line_comes_first() {
        let args = serve(
            with_file(FILE, &["check", "--rate-limit", "7", "--host-webhook-url", "https://x.example/h"]).unwrap(),
        );
        assert_eq!(args.access.rate_limit, 7);
        assert_eq!(
            args.host_webhooks.host_webhook_urls,
            ["https://x.example/h"],
            "a list given replaces the file's whole"
        );
        assert_eq!(args.serving.listen.to_string(), "127.0.0.1:9100");
        let args = serve(with_file(FILE, &["--log-format", "text", "serve", "--access", "open"]).unwrap());
        assert_eq!(args.access.access, AccessMode::Open);
    }

    #[test]
    fn the_database_s_commands_take_its_data_dir_and_the_sandbox_ignores_it() {
        let file = "data-dir = \"/srv/vstage\"\nlisten = \"127.0.0.1:9100\"\n";
        let Command::Usage(usage) =
            with_file(file, &["usage", "--from", "2026-11-01", "--to", "2026-12-01"]).unwrap().command
        else {
            panic!("not usage")
        };
        assert_eq!(usage.database.data_dir, std::path::Path::new("/srv/vstage"));
        let Command::Sandbox(sandbox) = with_file(file, &["sandbox", "--api-key", "k"]).unwrap().command else {
            panic!("not the sandbox")
        };
        assert_eq!(sandbox.listen.to_string(), "127.0.0.1:8787", "serve's listen is not the sandbox's");
    }

    #[test]
    fn a_key_that_is_no_option_is_named_with_its_line() {
        let said = refused("listen = \"127.0.0.1:9100\"\n\n# the port\nlisten-port = 9100\n");
        assert!(said.contains("vstage.toml, line 4: `listen-port` is not an option of vstage serve"), "{said}");
        let said = refused("data_dir = \"/srv\"\n");
        assert!(said.contains("line 1: `data_dir` is spelled as its flag in this file: write `data-dir`"), "{said}");
        let said = refused("[serve]\nlisten = \"127.0.0.1:1\"\n");
        assert!(
            said.contains("line 1: `[serve]` is no group of serve's options; the groups are `[serving]`"),
            "{said}"
        );
        let said = refused("config = \"other.toml\"\n");
        assert!(said.contains("one file cannot name another"), "{said}");
    }

    /// The groups `vstage serve --help` shows are the file's tables; an option is in its own group's or at the top.
    #[test]
    fn options_may_be_written_in_their_groups_tables() {
        let file = "workers = 2\n\n[storage]\ndata-dir = \"/srv/vstage\"\nupload-quota-mb = 10\n\n\
                    [time-outs]\nheader-timeout-s = 5\n\n[host-webhooks]\nhost-webhook-url = [\"https://b.example/h\"]\n";
        let args = serve(with_file(file, &["serve"]).unwrap());
        assert_eq!(args.serving.workers.map(usize::from), Some(2));
        assert_eq!(args.storage.database.data_dir, std::path::Path::new("/srv/vstage"));
        assert_eq!(args.storage.upload_quota_mb, 10);
        assert_eq!(args.timeouts.header_timeout_s, 5);
        assert_eq!(args.host_webhooks.host_webhook_urls, ["https://b.example/h"]);
        let said = refused("[storage]\nrate-limit = 5\n");
        assert!(
            said.contains("line 2: `rate-limit` is not one of `[storage]`'s options: write it in `[access]`"),
            "{said}"
        );
        let said = refused("[limits]\n[limits.more]\nworkers = 1\n");
        assert!(said.contains("a table inside a table"), "{said}");
        let said = refused("[storage]\napi-key = \"k\"\n");
        assert!(said.contains("secrets are not kept in this file"), "{said}");
    }

    #[test]
    fn a_value_of_the_wrong_type_is_named_with_its_line() {
        for (text, line, words) in [
            (
                "access = \"token\"\nrate-limit = \"600\"\n",
                2,
                "`rate-limit` takes a number (without quotes), not a string",
            ),
            ("set-webhook-secret = \"yes\"\n", 1, "`set-webhook-secret` takes true or false, not a string"),
            ("allow-origin = \"https://a.example\"\n", 1, "`allow-origin` takes a list, even of one, not a string"),
            ("allow-origin = [1]\n", 1, "`allow-origin` takes a list of strings, not an integer"),
            ("listen = [\"127.0.0.1:1\"]\n", 1, "`listen` takes a string (in quotes), not a list"),
            ("listen = \"nowhere\"\n", 1, "`listen` is refused: invalid value 'nowhere' for '--listen <LISTEN>'"),
            ("access = \"everyone\"\n", 1, "[possible values: open, token]"),
            ("rate-limit = -5\n", 1, "`rate-limit` is refused: invalid value '-5'"),
            ("upload-retention = 30\n", 1, "`upload-retention` takes a string (in quotes), not an integer"),
            ("\nlisten = \"127.0.0.1:1\"\nlisten = \"127.0.0.1:2\"\n", 3, "this is not TOML"),
        ] {
            let said = refused(text);
            assert!(said.contains(&format!("line {line}: ")), "{text}: {said}");
            assert!(said.contains(words), "{text}: {said}");
        }
    }

    #[test]
    fn secrets_are_refused_and_sent_to_the_environment() {
        for (key, variable) in [
            ("api-key", "VSTAGE_API_KEY"),
            ("widget-secret", "VSTAGE_WIDGET_SECRET"),
            ("VSTAGE_WEBHOOK_SECRET", "VSTAGE_WEBHOOK_SECRET"),
            ("host_webhook_secret", "VSTAGE_HOST_WEBHOOK_SECRET"),
        ] {
            let said = refused(&format!("{key} = \"s3cr3t-value\"\n"));
            assert!(said.contains(&format!("`{key}` is a secret")) && said.contains(variable), "{said}");
            assert!(!said.contains("s3cr3t-value"), "the secret is never said: {said}");
        }
        let said = refused("database = \"postgres://vstage:hunter2@db.internal/vstage\"\n");
        assert!(said.contains("`database` carries a password") && said.contains("VSTAGE_DATABASE_URL"), "{said}");
        assert!(!said.contains("hunter2"), "{said}");
        let args = serve(with_file("database = \"postgres://vstage@db.internal/vstage\"\n", &["serve"]).unwrap());
        assert_eq!(
            args.storage.database.database.as_deref(),
            Some("postgres://vstage@db.internal/vstage"),
            "no password, no secret"
        );
    }

    #[test]
    fn options_that_go_together_go_together_from_the_file_too() {
        let Err(Refusal::Setting(said)) = with_file("c2pa-cert = \"/etc/vstage/chain.pem\"\n", &["serve"]) else {
            panic!("a certificate without its key is taken")
        };
        assert!(said.contains("`c2pa-cert` and `c2pa-key` go together"), "{said}");
        let both = "c2pa-cert = \"/etc/vstage/chain.pem\"\nc2pa-key = \"/etc/vstage/key.pem\"\n";
        assert!(with_file(both, &["serve"]).is_ok());
    }

    #[test]
    fn a_file_that_cannot_be_read_is_named() {
        let line = ["vstage", "serve", "--config", "/nowhere/vstage.toml"].map(OsString::from);
        let Err(Refusal::Setting(said)) = parse(line) else { panic!("a missing file is taken") };
        assert!(
            said.contains("cannot read the configuration file /nowhere/vstage.toml (--config or VSTAGE_CONFIG)"),
            "{said}"
        );
    }
}
