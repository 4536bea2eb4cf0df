//! wasm-split's shared code regrouped so that a screen comes in a few files, not dozens.
//!
//! wasm-split puts the code each set of split points shares in a chunk of its own: 100 and more chunks for our
//! eleven split points, many of a few hundred bytes, and the board screen waited for 60 of them (ten round trips over
//! HTTP/1.1's six connections). Here chunks are merged two groups at a time, the pair that gains most first, while
//! a merge gains: each split point needing both saves a request ([`REQUEST_BYTES`]), each needing only one fetches
//! the other's bytes for nothing. What is left is a few modules per screen, with little fetched beyond its needs.
//! The default first screen's shared code is one module of its own, fetched beside the main module.
//!
//! The chunks are plain modules over the main module's memory, table and stack pointer (no functions imported or
//! exported, no start): merging is concatenating their types, functions, table entries and data, with the indices
//! shifted (`wasm-encoder`'s re-encoder). A chunk of another shape stops the build.

use std::collections::{BTreeSet, HashMap};
use std::path::Path;

use anyhow::{Context, bail};
use wasm_encoder::reencode::{Error as ReencodeError, Reencode};
use wasm_encoder::{
    CodeSection, CustomSection, DataCountSection, DataSection, ElementSection, EntityType, FunctionSection,
    ImportSection, Module, NameMap, NameSection, TypeSection,
};
use wasmparser::{Parser, Payload, TypeRef};

use crate::precompress::gzip_size;
use crate::split_loader::{LoadedModule, Loader};

/// What a request costs, in gzip bytes: a round trip (150 ms) shared by six connections at 1.6 Mbps (the slow
/// connection `cargo xtask bench widget` emulates) carries about this much.
const REQUEST_BYTES: u64 = 5 * 1024;

/// Regroups the loader's shared chunks in `folder` (wasm-split's output): writes each group's merged module there,
/// and removes the chunks it replaces.
pub fn regroup(loader: &mut Loader, folder: &Path) -> anyhow::Result<()> {
    let mut chunks = Vec::new();
    for chunk in loader.modules.iter().filter(|module| module.split().is_none()) {
        if !chunk.dependencies.is_empty() {
            bail!("wasm-split's chunk {} waits for others; the widget build's regrouping needs updating", chunk.name);
        }
        let users: BTreeSet<&str> = loader
            .modules
            .iter()
            .filter(|split| split.dependencies.contains(&chunk.name))
            .filter_map(|split| split.split())
            .collect();
        let file = folder.join(&chunk.file);
        let bytes = std::fs::read(&file).with_context(|| format!("reading {}", file.display()))?;
        chunks.push(Group { members: vec![chunk.name.clone()], users, gzip: gzip_size(&bytes)? });
    }
    let groups = plan(chunks);

    let mut group_of: HashMap<String, String> = HashMap::new();
    let mut modules = Vec::new();
    for (index, group) in groups.iter().enumerate() {
        if let [only] = group.members.as_slice() {
            group_of.insert(only.clone(), only.clone());
            modules.push(loader.module(only)?.clone());
            continue;
        }
        let (name, file) = (format!("__shared_{index}"), format!("shared_{index}.wasm"));
        let mut inputs = Vec::new();
        for member in &group.members {
            let path = folder.join(&loader.module(member)?.file);
            inputs.push(std::fs::read(&path).with_context(|| format!("reading {}", path.display()))?);
            std::fs::remove_file(&path)?;
            group_of.insert(member.clone(), name.clone());
        }
        std::fs::write(folder.join(&file), merge(&inputs).context("merging wasm-split's chunks")?)?;
        modules.push(LoadedModule::shared_like(loader.module(&group.members[0])?, &name, &file));
    }
    for split in loader.modules.iter().filter(|module| module.split().is_some()) {
        let mut split = split.clone();
        let mut dependencies: Vec<String> = Vec::new();
        for dependency in &split.dependencies {
            let group = group_of.get(dependency).with_context(|| format!("{dependency} is in no group"))?;
            if !dependencies.contains(group) {
                dependencies.push(group.clone());
            }
        }
        split.dependencies = dependencies;
        modules.push(split);
    }
    loader.modules = modules;
    Ok(())
}

/// Chunks loaded together, and the split points that need them.
#[derive(Debug, Clone, PartialEq)]
struct Group<'a> {
    members: Vec<String>,
    users: BTreeSet<&'a str>,
    gzip: u64,
}

/// The split point of the screen most elements start on (the renders list, `view`'s default). All the code it shares
/// with other screens is one module: it comes beside the main module on nearly every first load, so it is fetched
/// whole and at once, and the other screens, which usually come after it, find it in the cache.
const DEFAULT_SCREEN: &str = "renders_screen";

/// What merging two groups gains, in bytes: a request for each split point that needs both, less the bytes each
/// split point that needs only one would fetch for nothing. The default screen's group takes nothing more.
fn gain(a: &Group, b: &Group) -> i64 {
    if a.users.contains(DEFAULT_SCREEN) || b.users.contains(DEFAULT_SCREEN) {
        return i64::MIN;
    }
    let both = a.users.intersection(&b.users).count() as u64;
    (both * REQUEST_BYTES) as i64 - (fetched_for_nothing(a, b) + fetched_for_nothing(b, a)) as i64
}

/// The bytes of `other` that `group`'s split points would fetch for nothing, merged with it: `other`'s size for each
/// one `other` does not serve. A part of a screen loaded on its first use (a dialog, a form opened) comes after its
/// screen, whose code is then in the cache: when a screen needs both groups, that part is taken to fetch nothing new.
/// This favours the first screens (fewer files, and no more bytes) over a part's first use, which may then fetch
/// code of another screen that shares it.
fn fetched_for_nothing(group: &Group, other: &Group) -> u64 {
    let a_screen_has_both = group.users.intersection(&other.users).any(|split| !is_part_of_a_screen(split));
    let fetching =
        group.users.difference(&other.users).filter(|split| !(a_screen_has_both && is_part_of_a_screen(split))).count()
            as u64;
    fetching * other.gzip
}

/// Whether the split point is code loaded from within a screen once it is used, not a screen (`..._screen`, see
/// `screen_chunks.rs`) or the standalone page's chooser, which come first.
fn is_part_of_a_screen(split: &str) -> bool {
    !split.ends_with("_screen") && split != "locale_chooser"
}

/// Merges the default screen's chunks into one group, then the pair that gains most while a merge gains.
fn plan(groups: Vec<Group>) -> Vec<Group> {
    let (default_screens, mut groups): (Vec<Group>, Vec<Group>) =
        groups.into_iter().partition(|group| group.users.contains(DEFAULT_SCREEN));
    if let Some(default_screens) = default_screens.into_iter().reduce(joined) {
        groups.insert(0, default_screens);
    }
    loop {
        let mut best: Option<(i64, usize, usize)> = None;
        for i in 0..groups.len() {
            for j in i + 1..groups.len() {
                let gained = gain(&groups[i], &groups[j]);
                if gained > 0 && best.is_none_or(|(most, _, _)| gained > most) {
                    best = Some((gained, i, j));
                }
            }
        }
        let Some((_, i, j)) = best else { return groups };
        let (merged, into) = (groups.remove(j), groups.remove(i));
        groups.insert(i, joined(into, merged));
    }
}

/// One group of both groups' chunks, for both groups' split points.
fn joined<'a>(mut into: Group<'a>, other: Group<'a>) -> Group<'a> {
    into.members.extend(other.members);
    into.users.extend(other.users);
    into.gzip += other.gzip;
    into
}

/// One module doing what the chunks do, loaded in any order.
fn merge(chunks: &[Vec<u8>]) -> anyhow::Result<Vec<u8>> {
    let mut types = TypeSection::new();
    let mut imports = ImportSection::new();
    let mut functions = FunctionSection::new();
    let mut elements = ElementSection::new();
    let mut code = CodeSection::new();
    let mut data = DataSection::new();
    let mut shared: Vec<(String, String, EntityType)> = Vec::new();
    let mut target_features: Option<Vec<u8>> = None;
    // The functions' names, for the size figures (`cargo xtask size-diff`): wasm-opt leaves them out of what is served.
    let mut function_names = NameMap::new();
    let mut has_data_count = false;
    for chunk in chunks {
        let mut shift =
            Shift { types: types.len(), functions: functions.len(), data: data.len(), elements: elements.len() };
        for payload in Parser::new(0).parse_all(chunk) {
            match payload? {
                Payload::Version { .. } | Payload::End(_) => {}
                Payload::TypeSection(section) => shift.parse_type_section(&mut types, section)?,
                Payload::ImportSection(section) => {
                    for import in section.into_imports() {
                        let import = import?;
                        let entity = match import.ty {
                            TypeRef::Memory(memory) => EntityType::Memory(shift.memory_type(memory)?),
                            TypeRef::Table(table) => EntityType::Table(shift.table_type(table)?),
                            TypeRef::Global(global) => EntityType::Global(shift.global_type(global)?),
                            _ => bail!(
                                "a chunk imports {}.{}, which is not memory, table or global",
                                import.module,
                                import.name
                            ),
                        };
                        let key = (import.module.to_string(), import.name.to_string());
                        match shared.iter().find(|(module, name, _)| (module, name) == (&key.0, &key.1)) {
                            Some((_, _, kept)) if *kept == entity => {}
                            Some(_) => bail!("chunks import {}.{} with different types", key.0, key.1),
                            None => shared.push((key.0, key.1, entity)),
                        }
                    }
                }
                Payload::FunctionSection(section) => shift.parse_function_section(&mut functions, section)?,
                Payload::ElementSection(section) => shift.parse_element_section(&mut elements, section)?,
                Payload::DataCountSection { .. } => has_data_count = true,
                Payload::CodeSectionStart { .. } => {}
                Payload::CodeSectionEntry(body) => shift.parse_function_body(&mut code, body)?,
                Payload::DataSection(section) => shift.parse_data_section(&mut data, section)?,
                Payload::CustomSection(section) if section.name() == "target_features" => {
                    target_features.get_or_insert_with(|| section.data().to_vec());
                }
                Payload::CustomSection(section) => {
                    if let wasmparser::KnownCustom::Name(reader) = section.as_known() {
                        for name in reader {
                            if let Ok(wasmparser::Name::Function(map)) = name {
                                for naming in map {
                                    let naming = naming?;
                                    function_names.append(naming.index + shift.functions, naming.name);
                                }
                            }
                        }
                    }
                }
                Payload::ExportSection(section) if section.count() == 0 => {}
                other => bail!("a chunk has a section the merge does not know: {other:?}"),
            }
        }
    }
    // One import of each kind, in the order the chunks import them: every chunk's index 0 of each.
    for kind in ["memory", "table", "global"] {
        let of_kind: Vec<_> = shared.iter().filter(|(_, _, entity)| entity_kind(entity) == kind).collect();
        if of_kind.len() > 1 {
            bail!(
                "chunks import more than one {kind}: {:?}",
                of_kind.iter().map(|(m, n, _)| format!("{m}.{n}")).collect::<Vec<_>>()
            );
        }
    }
    for (module, name, entity) in &shared {
        imports.import(module, name, *entity);
    }
    let mut module = Module::new();
    module.section(&types).section(&imports).section(&functions).section(&elements);
    if has_data_count {
        module.section(&DataCountSection { count: data.len() });
    }
    module.section(&code).section(&data);
    if !function_names.is_empty() {
        let mut names = NameSection::new();
        names.functions(&function_names);
        module.section(&names);
    }
    if let Some(features) = &target_features {
        module.section(&CustomSection { name: "target_features".into(), data: features.as_slice().into() });
    }
    Ok(module.finish())
}

fn entity_kind(entity: &EntityType) -> &'static str {
    match entity {
        EntityType::Memory(_) => "memory",
        EntityType::Table(_) => "table",
        EntityType::Global(_) => "global",
        _ => "other",
    }
}

/// One chunk's indices in the merged module: its types, functions, data and element segments come after those of
/// the chunks before it; memory, table and global are the one shared import each.
struct Shift {
    types: u32,
    functions: u32,
    data: u32,
    elements: u32,
}

impl Reencode for Shift {
    type Error = std::convert::Infallible;

    fn type_index(&mut self, ty: u32) -> Result<u32, ReencodeError<Self::Error>> {
        Ok(ty + self.types)
    }

    fn function_index(&mut self, function: u32) -> Result<u32, ReencodeError<Self::Error>> {
        Ok(function + self.functions)
    }

    fn data_index(&mut self, data: u32) -> Result<u32, ReencodeError<Self::Error>> {
        Ok(data + self.data)
    }

    fn element_index(&mut self, element: u32) -> Result<u32, ReencodeError<Self::Error>> {
        Ok(element + self.elements)
    }
}

#[cfg(test)]
mod tests {
    use wasm_encoder::{
        ConstExpr, ElementSegment, Elements, Function, GlobalType, Instruction, MemoryType, RefType, TableType, ValType,
    };
    use wasmparser::{Operator, Validator};

    use super::*;

    fn group<'a>(name: &str, users: &[&'a str], gzip: u64) -> Group<'a> {
        Group { members: vec![name.to_string()], users: users.iter().copied().collect(), gzip }
    }

    #[test]
    fn chunks_merge_while_the_requests_saved_outweigh_the_bytes_fetched_for_nothing() {
        let groups = plan(vec![
            group("__chunk_1", &["board_screen", "render_screen"], 300),
            group("__chunk_2", &["board_screen", "render_screen"], 200),
            // needed by one of them only, and large: fetching it for the render screen costs more than a request
            group("__chunk_3", &["board_screen"], 40_000),
            group("__chunk_4", &["mask_editor"], 90_000),
        ]);
        let members: Vec<Vec<String>> = groups.iter().map(|group| group.members.clone()).collect();
        assert_eq!(members, [vec!["__chunk_1", "__chunk_2"], vec!["__chunk_3"], vec!["__chunk_4"]]);
        assert_eq!(groups[0].gzip, 500);
    }

    #[test]
    fn a_part_opened_on_a_screen_takes_the_screens_code_it_finds_in_the_cache() {
        let groups = plan(vec![
            // the board's own code, and what the board shares with its waiting photos (loaded on the first photo)
            group("__chunk_1", &["board_screen"], 20_000),
            group("__chunk_2", &["board_screen", "waiting_photos"], 300),
            // a screen would fetch 20 KB for nothing, and does not merge with another screen
            group("__chunk_3", &["render_screen"], 20_000),
        ]);
        let members: Vec<Vec<String>> = groups.iter().map(|group| group.members.clone()).collect();
        assert_eq!(members, [vec!["__chunk_1", "__chunk_2"], vec!["__chunk_3"]], "one file for the board");
        assert!(is_part_of_a_screen("waiting_photos") && !is_part_of_a_screen("board_screen"));
        assert!(!is_part_of_a_screen("locale_chooser"), "the standalone page's chooser comes with the first screen");
    }

    #[test]
    fn the_default_screens_shared_code_is_one_module_of_its_own() {
        let groups = plan(vec![
            group("__chunk_1", &["renders_screen", "board_screen", "render_screen"], 300),
            // the board and the render screen would rather have this small one with the first, for one request less
            group("__chunk_2", &["board_screen", "render_screen"], 200),
            group("__chunk_3", &["account_screen"], 100),
            // large, and needed by the account too: with the list's other code all the same
            group("__chunk_4", &["renders_screen", "account_screen"], 40_000),
        ]);
        let members: Vec<Vec<String>> = groups.iter().map(|group| group.members.clone()).collect();
        assert_eq!(members, [vec!["__chunk_1", "__chunk_4"], vec!["__chunk_2"], vec!["__chunk_3"]]);
    }

    /// A chunk as wasm-split writes them: memory, table and stack pointer imported; one function that calls itself
    /// and reads the stack pointer, put in the table at `slot`; one data segment at `address`.
    fn chunk(slot: i32, address: i32, byte: u8) -> Vec<u8> {
        let mut types = TypeSection::new();
        types.ty().function([], []);
        types.ty().function([ValType::I32], [ValType::I32]);
        let mut imports = ImportSection::new();
        imports.import(
            "__wasm_split",
            "memory",
            MemoryType { minimum: 20, maximum: None, memory64: false, shared: false, page_size_log2: None },
        );
        imports.import(
            "__wasm_split",
            "__indirect_function_table",
            TableType { element_type: RefType::FUNCREF, minimum: 64, maximum: None, table64: false, shared: false },
        );
        imports.import(
            "__wasm_split",
            "__wasm_split_shared0",
            GlobalType { val_type: ValType::I32, mutable: true, shared: false },
        );
        let mut functions = FunctionSection::new();
        functions.function(1);
        let mut elements = ElementSection::new();
        elements.segment(ElementSegment {
            mode: wasm_encoder::ElementMode::Active { table: None, offset: &ConstExpr::i32_const(slot) },
            elements: Elements::Functions([0].as_slice().into()),
        });
        let mut code = CodeSection::new();
        let mut body = Function::new([]);
        body.instruction(&Instruction::GlobalGet(0)).instruction(&Instruction::Call(0)).instruction(&Instruction::End);
        code.function(&body);
        let mut data = DataSection::new();
        data.active(0, &ConstExpr::i32_const(address), [byte, byte]);
        let mut module = Module::new();
        module.section(&types).section(&imports).section(&functions).section(&elements).section(&code).section(&data);
        module.finish()
    }

    #[test]
    fn merged_chunks_keep_each_function_its_calls_table_slot_and_data() {
        let merged = merge(&[chunk(3, 1000, 7), chunk(4, 2000, 9)]).unwrap();
        Validator::new().validate_all(&merged).expect("the merged module is valid");
        let (mut imports, mut calls, mut slots, mut data) = (0, Vec::new(), Vec::new(), Vec::new());
        for payload in Parser::new(0).parse_all(&merged) {
            match payload.unwrap() {
                Payload::ImportSection(section) => imports = section.into_imports().count(),
                Payload::CodeSectionEntry(body) => {
                    for operator in body.get_operators_reader().unwrap() {
                        if let Operator::Call { function_index } = operator.unwrap() {
                            calls.push(function_index);
                        }
                    }
                }
                Payload::ElementSection(section) => {
                    for element in section {
                        let element = element.unwrap();
                        let wasmparser::ElementKind::Active { offset_expr, .. } = element.kind else { panic!() };
                        let Operator::I32Const { value } = offset_expr.get_operators_reader().read().unwrap() else {
                            panic!()
                        };
                        let wasmparser::ElementItems::Functions(items) = element.items else { panic!() };
                        slots.push((value, items.into_iter().map(Result::unwrap).collect::<Vec<_>>()));
                    }
                }
                Payload::DataSection(section) => {
                    data.extend(section.into_iter().map(|segment| segment.unwrap().data.to_vec()));
                }
                _ => {}
            }
        }
        assert_eq!(imports, 3, "one memory, one table, one stack pointer");
        assert_eq!(calls, [0, 1], "each function still calls itself");
        assert_eq!(slots, [(3, vec![0]), (4, vec![1])]);
        assert_eq!(data, [vec![7, 7], vec![9, 9]]);
    }

    #[test]
    fn a_chunk_of_another_shape_is_refused() {
        let mut module = Module::new();
        let mut imports = ImportSection::new();
        imports.import("env", "f", EntityType::Function(0));
        let mut types = TypeSection::new();
        types.ty().function([], []);
        module.section(&types).section(&imports);
        let refused = merge(&[module.finish()]).unwrap_err().to_string();
        assert!(refused.contains("env.f"), "{refused}");
    }
}
