//! The `fifteen` binary: everything lives in the library's `cli` module.
#![forbid(unsafe_code)]

fn main() -> std::process::ExitCode {
    fifteen::cli::main()
}
