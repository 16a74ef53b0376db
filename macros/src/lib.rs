//! Proc-macro entry points of `fifteen`. The generator itself lives in ordinary modules so that
//! it can be unit-tested like any other code; this file only parses invocations.
#![forbid(unsafe_code)]
