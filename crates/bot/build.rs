//! Code generation for the bot: the client of `proto/chessd/v1/chessd.proto`, compiled with
//! `protox` (pure Rust, no system `protoc`) and `tonic-prost-build`. The bot speaks the public
//! API only, so it generates its own client from the same file the server is built from.

const PROTO_ROOT: &str = "../../proto";
const PROTO_FILE: &str = "../../proto/chessd/v1/chessd.proto";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("cargo:rerun-if-changed={PROTO_ROOT}");
    let mut compiler = protox::Compiler::new([PROTO_ROOT])?;
    // Source info keeps the proto comments as rustdoc on the generated types.
    compiler
        .include_source_info(true)
        .include_imports(true)
        .open_files([PROTO_FILE])?;
    tonic_prost_build::configure()
        .build_client(true)
        .build_server(false)
        .compile_fds(compiler.file_descriptor_set())?;
    Ok(())
}
