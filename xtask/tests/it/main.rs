//! The xtask's one integration-test binary: one module per subcommand.

mod archive;
mod bundle;
mod bundle_crates;
mod checked;
mod companion;
mod debug;
mod editor;
mod float;
mod hunt;
mod interactive;
mod judge;
mod limits;
mod memory;
mod new;
mod proc_macros;
mod properties;
mod runner;
mod scale;
mod stress;
mod submit;
mod support;
mod watch;
mod workspace;
