//! The xtask's one integration-test binary: one module per subcommand.

mod bundle;
mod bundle_crates;
mod companion;
mod float;
mod interactive;
mod judge;
mod memory;
mod new;
mod properties;
mod stress;
mod support;
