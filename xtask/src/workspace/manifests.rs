//! Manifests read as TOML tables, each file parsed once a run while it stays the same: asked of
//! by the build (which workspace builds a problem), the member lists and the editor's files.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

/// A manifest read as a table, each file parsed once a run while its size and modification
/// time stay the same: judging every problem asks of the root manifest once per problem (which
/// workspace builds it, whether it is listed: [`super::members::root_of`]), and with a thousand
/// archived problems that manifest excludes a thousand folders.
pub(crate) fn read_table(manifest: &Path) -> Result<std::sync::Arc<toml::Table>> {
    type Read = (
        u64,
        Option<std::time::SystemTime>,
        std::sync::Arc<toml::Table>,
    );
    static READ: std::sync::Mutex<BTreeMap<PathBuf, Read>> = std::sync::Mutex::new(BTreeMap::new());
    let meta =
        fs::metadata(manifest).with_context(|| format!("cannot read {}", manifest.display()))?;
    let stamp = (meta.len(), meta.modified().ok());
    let mut read = READ.lock().unwrap_or_else(|p| p.into_inner());
    if let Some((len, modified, table)) = read.get(manifest) {
        if (*len, *modified) == stamp {
            return Ok(std::sync::Arc::clone(table));
        }
    }
    let text = fs::read_to_string(manifest)
        .with_context(|| format!("cannot read {}", manifest.display()))?;
    let table: toml::Table =
        toml::from_str(&text).with_context(|| format!("cannot parse {}", manifest.display()))?;
    let table = std::sync::Arc::new(table);
    read.insert(
        manifest.to_path_buf(),
        (stamp.0, stamp.1, std::sync::Arc::clone(&table)),
    );
    Ok(table)
}
