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
    Ok(())
}
