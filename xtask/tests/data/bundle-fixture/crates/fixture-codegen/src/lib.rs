//! A crate that includes code its build script generates: one file cannot carry that.

include!(concat!(env!("OUT_DIR"), "/table.rs"));
