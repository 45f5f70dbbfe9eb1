//! tool-core's modules import one way: each from the layers below it,
//! never from one above (ARCHITECTURE.md draws them). Read from the source:
//! every `use crate::…` of a module's code (its doc comments and its test
//! modules aside) must name a module of its own layer or a lower one.

use std::path::{Path, PathBuf};

/// The layers, bottom first; modules in one layer may use each other.
const LAYERS: &[&[&str]] = &[
    &["macros", "name_map", "params", "trace"],
    &["model"],
    &["repair"],
    &["providers"],
    &["turn"],
    &["tool"],
    &["registered"],
    &["toolset"],
    &["registry"],
    &["approval"],
    &["executor"],
];

/// Modules that sit above every layer: the crate root, the support of
/// generated code, the derive's reference (documentation).
const ABOVE_ALL: &[&str] = &["lib", "__private", "_derive"];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&module))
}

/// Every `.rs` file under `dir`.
fn sources(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, found);
        } else if path.extension().is_some_and(|extension| extension == "rs") {
            found.push(path);
        }
    }
}

/// The module of the crate a source file belongs to: its first path part
/// under `src/`.
fn module_of(src: &Path, file: &Path) -> String {
    let relative = file.strip_prefix(src).unwrap();
    let first = relative
        .components()
        .next()
        .unwrap()
        .as_os_str()
        .to_string_lossy();
    first.trim_end_matches(".rs").to_owned()
}

/// The code of a file without its test modules: everything before its
/// first `#[cfg(test)]` (test modules close every file that has one).
fn code(text: &str) -> &str {
    text.split("#[cfg(test)]").next().unwrap_or(text)
}

/// The modules a `use crate::…` statement names at its first step; the
/// statement may span lines.
fn used_modules(code: &str) -> Vec<String> {
    let mut used = Vec::new();
    for (index, _) in code.match_indices("use crate::") {
        let line_start = code[..index].rfind('\n').map_or(0, |at| at + 1);
        if code[line_start..index].trim_start().starts_with("//") {
            continue;
        }
        let rest = &code[index + "use crate::".len()..];
        let statement = &rest[..rest.find(';').unwrap_or(rest.len())];
        if let Some(group) = statement.strip_prefix('{') {
            for part in top_level_parts(group) {
                used.push(first_name(part));
            }
        } else {
            used.push(first_name(statement));
        }
    }
    used
}

/// The parts of a `{..}` group separated by its own commas (not those of
/// groups inside it).
fn top_level_parts(group: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0usize, 0);
    for (index, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => break,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&group[start..index]);
                start = index + 1;
            }
            _ => {}
        }
    }
    parts.push(&group[start..group.len().min(group.rfind('}').unwrap_or(group.len()))]);
    parts
        .into_iter()
        .filter(|part| !part.trim().is_empty())
        .collect()
}

/// A path's first name: `model` of `model::{A, B}`.
fn first_name(path: &str) -> String {
    path.trim()
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect()
}

#[test]
fn modules_import_only_from_their_layer_or_below() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut wrong = Vec::new();
    for file in &files {
        let module = module_of(&src, file);
        if ABOVE_ALL.contains(&module.as_str()) || module == "docs" {
            continue;
        }
        let Some(own) = layer_of(&module) else {
            wrong.push(format!(
                "{}: module `{module}` is in no layer",
                file.display()
            ));
            continue;
        };
        let text = std::fs::read_to_string(file).unwrap();
        for used in used_modules(code(&text)) {
            match layer_of(&used) {
                Some(layer) if layer <= own => {}
                Some(_) => wrong.push(format!(
                    "{}: `{module}` uses `crate::{used}`, a layer above it",
                    file.strip_prefix(&src).unwrap().display()
                )),
                // Items of the crate root (`crate::ToolCall`): say which
                // module instead, so the layer is visible.
                None => wrong.push(format!(
                    "{}: `{module}` uses `crate::{used}`; name the module it is in",
                    file.strip_prefix(&src).unwrap().display()
                )),
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports against the layers:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_reader_of_use_statements_reads_groups_and_skips_comments() {
    let code = "use crate::model::{A, B};\n// use crate::executor::X;\nuse crate::{turn::Turn, tool::{Tool, ToolError}, params::{A, B}};\n    use crate::params::ParamError;";
    assert_eq!(
        used_modules(code),
        ["model", "turn", "tool", "params", "params"]
    );
}
