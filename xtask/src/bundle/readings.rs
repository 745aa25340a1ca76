//! Each crate's source as the bundler reads it ([`super::expand::load_crate`]: its files
//! inlined, `cfg`s decided, tests and docs gone; then its proc macros expanded), read once per
//! run and, for a crate that calls no proc macro, kept between runs (see [`super::cache`]),
//! keyed by the bundler, the crate's root, its settings and the content of every file the
//! reading read or looked for. So a second bundle after an edit of `main.rs` parses `main.rs`
//! again, and of rand's files only compares the bytes with their digests.
//!
//! What the plan asks of every crate before any is bundled (which of its dependencies it
//! names, which environment variables it reads, which macros it exports: [`Summary`]) is kept
//! beside its reading, so a crate no solution reaches (rand's libc) is not even parsed when
//! nothing changed.
//!
//! A reading of this run is used again while its files hold what they held. A reading is
//! kept between runs as its tokens, and only when they read back as the same syntax tree
//! (compared as syn compares trees: spans aside), so a kept reading is the reading.
//! What a proc macro's expansion gives depends on the server and the macro's library, not on
//! files: a crate that can call one is read anew every run.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use anyhow::Result;
use quote::ToTokens;
use serde::{Deserialize, Serialize};

use super::cache::{self, Store};
use super::cfg::Cfg;
use super::proc_macros::ProcMacros;
use super::reads::LookedAt;

/// The crates read so far in this run, and the cache of earlier runs. Cloning shares both.
#[derive(Clone, Default)]
pub struct Readings {
    store: Option<Store>,
    proc_macros: ProcMacros,
    read: Arc<Mutex<BTreeMap<(PathBuf, String), Reading>>>,
}

/// One crate as read, and what its reading read or looked for.
#[derive(Clone)]
struct Reading {
    file: syn::File,
    looked_at: LookedAt,
}

impl std::fmt::Debug for Readings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Readings")
            .field("store", &self.store)
            .field("read", &self.lock().len())
            .finish()
    }
}

/// What decides a kept reading.
#[derive(Serialize, Deserialize)]
struct Key {
    bundler: String,
    root: PathBuf,
    cfg: String,
    looked_at: LookedAt,
}

impl Key {
    /// Whether an entry kept with this key is the crate at `root` read with `settings` as it
    /// is now: by this bundler, every file it read or looked for unchanged.
    fn holds(&self, root: &Path, settings: &str) -> bool {
        self.bundler == cache::bundler()
            && self.root == root
            && self.cfg == settings
            && cache::unchanged(&self.looked_at)
    }
}

/// What decides a kept summary: its reading's key, and the names asked about.
#[derive(Serialize, Deserialize)]
struct SummaryKey {
    reading: Key,
    asked: BTreeSet<String>,
}

/// What the plan needs to know of a crate's source (see [`Readings::summary`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    /// Of the names asked about, those its source uses.
    pub named: BTreeSet<String>,
    /// The environment variables it reads at compile time (`env!`, `option_env!`).
    pub env_read: BTreeSet<String>,
    /// Its `#[macro_export]` macros (see [`super::macros::exported_names`]).
    pub exported_macros: BTreeSet<String>,
}

impl Readings {
    /// Readings that expand proc macros with `proc_macros` and keep what they read in `store`
    /// (none: only for this run).
    pub fn new(store: Option<Store>, proc_macros: ProcMacros) -> Readings {
        Readings {
            store,
            proc_macros,
            read: Arc::default(),
        }
    }

    /// The crate whose root file is `root`, read with the settings `cfg`: from this run, from
    /// the cache, or from its files. A reading of this run too is used again only while its
    /// files are unchanged (a plan may be bundled again after an edit: the property tests do).
    pub fn read(&self, root: &Path, cfg: &Cfg) -> Result<syn::File> {
        self.with_reading(root, cfg, |reading| reading.file.clone())
    }

    /// What `f` makes of the crate's reading (see [`Readings::read`]).
    fn with_reading<T>(&self, root: &Path, cfg: &Cfg, f: impl FnOnce(&Reading) -> T) -> Result<T> {
        let settings = format!("{cfg:?}");
        let at = (root.to_path_buf(), settings);
        if let Some(reading) = self.lock().get(&at) {
            if cache::unchanged(&reading.looked_at) {
                return Ok(f(reading));
            }
        }
        let reading = self.read_kept(root, &at.1, cfg)?;
        let made = f(&reading);
        self.lock().insert(at, reading);
        Ok(made)
    }

    /// Which of the names `asked` the crate at `root` (read with `cfg`) uses, what it reads of
    /// the environment and which macros it exports: from the cache when its files are
    /// unchanged (the crate itself is then not parsed), or from its reading.
    pub fn summary(&self, root: &Path, cfg: &Cfg, asked: &BTreeSet<String>) -> Result<Summary> {
        let settings = format!("{cfg:?}");
        let store = self.store_for(root);
        let name = cache::name_of(&(root, &settings, asked));
        if let Some(store) = store {
            let kept = store.get_if("summaries", &name, |key: &SummaryKey| {
                key.asked == *asked && key.reading.holds(root, &settings)
            });
            if let Some(summary) = kept {
                return Ok(summary);
            }
        }
        let (summary, looked_at) = self.with_reading(root, cfg, |reading| {
            let summary = Summary {
                named: names_in(&reading.file)
                    .intersection(asked)
                    .cloned()
                    .collect(),
                env_read: super::reads::env_reads(&reading.file),
                exported_macros: super::macros::exported_names(&reading.file.items),
            };
            (summary, reading.looked_at.clone())
        })?;
        if let Some(store) = store {
            let key = SummaryKey {
                reading: Key {
                    bundler: cache::bundler().to_string(),
                    root: root.to_path_buf(),
                    cfg: settings,
                    looked_at,
                },
                asked: asked.clone(),
            };
            store.put("summaries", &name, &key, &summary);
        }
        Ok(summary)
    }

    /// The cache for the crate at `root`: none for one that can call a proc macro.
    fn store_for(&self, root: &Path) -> Option<&Store> {
        self.store
            .as_ref()
            .filter(|_| !self.proc_macros.can_call(root))
    }

    fn read_kept(&self, root: &Path, settings: &str, cfg: &Cfg) -> Result<Reading> {
        let Some(store) = self.store_for(root) else {
            return self.read_files(root, cfg);
        };
        let name = cache::name_of(&(root, settings));
        let mut looked_at = None;
        let kept: Option<String> = store.get_if("crates", &name, |key: &Key| {
            let holds = key.holds(root, settings);
            if holds {
                looked_at = Some(key.looked_at.clone());
            }
            holds
        });
        if let (Some(tokens), Some(looked_at)) = (kept, looked_at) {
            if let Ok(file) = syn::parse_file(&tokens) {
                return Ok(Reading { file, looked_at });
            }
        }
        let reading = self.read_files(root, cfg)?;
        let tokens = reading.file.to_token_stream().to_string();
        if syn::parse_file(&tokens).is_ok_and(|again| again == reading.file) {
            let key = Key {
                bundler: cache::bundler().to_string(),
                root: root.to_path_buf(),
                cfg: settings.to_string(),
                looked_at: reading.looked_at.clone(),
            };
            store.put("crates", &name, &key, &tokens);
        }
        Ok(reading)
    }

    fn read_files(&self, root: &Path, cfg: &Cfg) -> Result<Reading> {
        let mut looked_at = Vec::new();
        let mut file = super::expand::load_crate_noting(root, cfg, &mut looked_at)?;
        self.proc_macros.expand(&mut file, root, cfg)?;
        Ok(Reading { file, looked_at })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<(PathBuf, String), Reading>> {
        self.read.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// Every identifier in `file` (paths, `use` trees, macro bodies): a dependency the code never
/// names is one it does not use.
fn names_in(file: &syn::File) -> BTreeSet<String> {
    fn walk(tokens: proc_macro2::TokenStream, names: &mut BTreeSet<String>) {
        for token in tokens {
            match token {
                proc_macro2::TokenTree::Ident(ident) => {
                    let name = ident.to_string();
                    names.insert(name.strip_prefix("r#").unwrap_or(&name).to_string());
                }
                proc_macro2::TokenTree::Group(group) => walk(group.stream(), names),
                _ => {}
            }
        }
    }
    let mut names = BTreeSet::new();
    walk(quote::ToTokens::to_token_stream(file), &mut names);
    names
}
