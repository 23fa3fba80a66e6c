//! Code generation for the gRPC API: compiles the repository's `proto/chessd/v1/chessd.proto`
//! with `protox` (pure Rust, so no system `protoc` is needed), generates the tonic server and
//! client with `tonic-prost-build`, and writes the encoded descriptor set that server reflection
//! serves.

use std::path::PathBuf;

/// The API lives at the top of the repository (`proto/`), apart from any one crate: buf lints
/// it there and every client generates from the same file.
const PROTO_ROOT: &str = "../../proto";
const PROTO_FILE: &str = "../../proto/chessd/v1/chessd.proto";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("cargo:rerun-if-changed={PROTO_ROOT}");
    let out_dir = PathBuf::from(std::env::var("OUT_DIR")?);

    let mut compiler = protox::Compiler::new([PROTO_ROOT])?;
    // Source info keeps the proto comments: they become rustdoc on the generated types and
    // grpcurl's `describe` shows them through reflection.
    compiler
        .include_source_info(true)
        .include_imports(true)
        .open_files([PROTO_FILE])?;
    std::fs::write(
        out_dir.join("chessd_descriptor.bin"),
        compiler.encode_file_descriptor_set(),
    )?;

    tonic_prost_build::configure()
        .build_client(true)
        .build_server(true)
        .compile_fds(compiler.file_descriptor_set())?;

    // The server's side (`wire`): `Game` is the hand-written `wire::Game`, whose move lists
    // are bytes encoded once per game; the messages that hold a game are generated again
    // around it, and every other type is the root's.
    let fds = compiler.file_descriptor_set();
    let wire = out_dir.join("wire");
    std::fs::create_dir_all(&wire)?;
    let mut builder = tonic_prost_build::configure()
        .build_client(false)
        .build_server(true)
        .out_dir(&wire)
        .extern_path(".chessd.v1.Game", "crate::wire::Game");
    for (name, rust) in root_types(&fds) {
        builder = builder.extern_path(name, rust);
    }
    // A `Game` is over a kilobyte inline: boxed, an answer or a stream message that holds one
    // moves a pointer through the handler, tonic's codec and a watcher's queue instead.
    for path in game_fields(&fds) {
        builder = builder.boxed(path);
    }
    builder.compile_fds(fds)?;
    Ok(())
}

/// Every `chessd.v1` enum, and every message that holds no `Game` however deep, with the
/// root's Rust path for it.
fn root_types(fds: &prost_types::FileDescriptorSet) -> Vec<(String, String)> {
    use std::collections::HashMap;
    let mut fields: HashMap<String, Vec<String>> = HashMap::new();
    let mut types = Vec::new();
    for file in fds.file.iter().filter(|f| f.package() == "chessd.v1") {
        for e in &file.enum_type {
            types.push((
                format!(".chessd.v1.{}", e.name()),
                e.name().to_owned(),
                false,
            ));
        }
        for m in &file.message_type {
            let name = format!(".chessd.v1.{}", m.name());
            let mut refs: Vec<String> = m.field.iter().map(|f| f.type_name().to_owned()).collect();
            for nested in &m.nested_type {
                refs.extend(nested.field.iter().map(|f| f.type_name().to_owned()));
            }
            fields.insert(name.clone(), refs);
            types.push((name, m.name().to_owned(), true));
        }
    }
    fn holds_game(name: &str, fields: &HashMap<String, Vec<String>>, depth: usize) -> bool {
        name == ".chessd.v1.Game"
            || (depth < 16
                && fields
                    .get(name)
                    .is_some_and(|refs| refs.iter().any(|r| holds_game(r, fields, depth + 1))))
    }
    types
        .into_iter()
        .filter(|(name, _, is_message)| !*is_message || !holds_game(name, &fields, 0))
        .map(|(name, rust, _)| (name, format!("crate::{rust}")))
        .collect()
}

/// The path, as `boxed` takes it, of every field that holds one `Game` (a oneof's by its
/// oneof's name).
fn game_fields(fds: &prost_types::FileDescriptorSet) -> Vec<String> {
    use prost_types::field_descriptor_proto::Label;
    let mut paths = Vec::new();
    for file in fds.file.iter().filter(|f| f.package() == "chessd.v1") {
        for m in &file.message_type {
            for f in &m.field {
                if f.type_name() != ".chessd.v1.Game" || f.label() == Label::Repeated {
                    continue;
                }
                let path = match f.oneof_index {
                    Some(i) if !f.proto3_optional() => format!(
                        ".chessd.v1.{}.{}.{}",
                        m.name(),
                        m.oneof_decl[i as usize].name(),
                        f.name()
                    ),
                    _ => format!(".chessd.v1.{}.{}", m.name(), f.name()),
                };
                paths.push(path);
            }
        }
    }
    paths
}
