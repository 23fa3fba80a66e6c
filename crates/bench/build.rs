//! Code generation for the echo yardstick: compiles `proto/echo/v1/echo.proto` (this crate's
//! own, not the chessd API) with `protox` and generates its tonic server and client with
//! `tonic-prost-build`.

const PROTO_ROOT: &str = "proto";
const PROTO_FILE: &str = "proto/echo/v1/echo.proto";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("cargo:rerun-if-changed={PROTO_ROOT}");
    let mut compiler = protox::Compiler::new([PROTO_ROOT])?;
    compiler.include_imports(true).open_files([PROTO_FILE])?;
    tonic_prost_build::configure()
        .build_client(true)
        .build_server(true)
        .compile_fds(compiler.file_descriptor_set())?;
    Ok(())
}
