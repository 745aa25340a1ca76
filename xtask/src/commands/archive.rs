//! `cargo xtask open`, `archive` and `migrate`: which problems are members of the root workspace
//! (open: cargo builds them with the libraries, rust-analyzer sees them) and which are kept
//! apart (archived: packages of their own), over `xtask::workspace::archive`, saying what moved.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use xtask::workspace;
use xtask::workspace::archive::{self, OPEN_LIMIT};
use xtask::workspace::editor::Missing;
use xtask::workspace::members::Layout;
use xtask::workspace::problem::{self, Problem};

/// Open problems: make them members of the workspace, so rust-analyzer sees them.
#[derive(clap::Args, Debug)]
pub struct OpenArgs {
    /// Problems: `boj-1717`, `1717` or a path to a problem folder under problems/. With none,
    /// list the open problems.
    pub problems: Vec<String>,
    /// The workspace at DIR instead of this one.
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
}

/// Archive problems: packages of their own, out of the workspace's members.
#[derive(clap::Args, Debug)]
pub struct ArchiveArgs {
    /// Problems: `boj-1717`, `1717` or a path to a problem folder under problems/.
    #[arg(required_unless_present = "all")]
    pub problems: Vec<String>,
    /// Every open problem.
    #[arg(long, conflicts_with = "problems")]
    pub all: bool,
    /// The workspace at DIR instead of this one.
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
}

/// Move a workspace made before the archive over: problems apart, the few changed last open.
#[derive(clap::Args, Debug)]
pub struct MigrateArgs {
    /// The workspace at DIR instead of this one.
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
}

fn problems(root: &std::path::Path, specs: &[String]) -> Result<Vec<PathBuf>> {
    specs
        .iter()
        .map(|spec| problem::find(Some(root), spec).map(|p| p.dir))
        .collect()
}

/// `cargo xtask open [PROBLEM...]`.
pub fn open(args: &OpenArgs) -> Result<ExitCode> {
    let root = dunce::canonicalize(workspace::root_or_project(args.root.as_deref())?)?;
    if archive::layout(&root)? == Layout::AllMembers {
        say!(
            "every problem is a member of this workspace (`members` has a pattern over \
             problems/); `cargo xtask migrate` keeps all but the {OPEN_LIMIT} changed last apart"
        );
        return Ok(ExitCode::SUCCESS);
    }
    if !args.problems.is_empty() {
        let moved = archive::open(&root, &problems(&root, &args.problems)?)?;
        if !moved.is_empty() {
            say!("{moved}");
        }
    }
    super::keep_editor_files(&root, Missing::Make);
    let open: Vec<String> = archive::open_problems(&root)?
        .into_iter()
        .map(
            |folder| match root.join(&folder).join("Cargo.toml").is_file() {
                true => folder,
                false => format!("{folder} (its folder is not there: cargo skips it)"),
            },
        )
        .collect();
    say!(
        "open ({} of {OPEN_LIMIT} at most, the last opened last): {}",
        open.len(),
        if open.is_empty() {
            "none".to_string()
        } else {
            open.join(", ")
        }
    );
    Ok(ExitCode::SUCCESS)
}

/// `cargo xtask archive PROBLEM... | --all`.
pub fn archive(args: &ArchiveArgs) -> Result<ExitCode> {
    let root = dunce::canonicalize(workspace::root_or_project(args.root.as_deref())?)?;
    let dirs = if args.all {
        archive::open_problems(&root)?
            .iter()
            .map(|entry| root.join(entry))
            .collect()
    } else {
        problems(&root, &args.problems)?
    };
    let moved = archive::archive(&root, &dirs)?;
    super::keep_editor_files(&root, Missing::Leave);
    if moved.is_empty() {
        say!("nothing to archive: none of them is open");
    } else {
        say!("{moved}");
    }
    Ok(ExitCode::SUCCESS)
}

/// `cargo xtask migrate`.
pub fn migrate(args: &MigrateArgs) -> Result<ExitCode> {
    let root = dunce::canonicalize(workspace::root_or_project(args.root.as_deref())?)?;
    let dirs: Vec<PathBuf> = problem::discover(&root)?
        .into_iter()
        .map(|p: Problem| p.dir)
        .collect();
    let migration = archive::migrate(&root, &dirs)?;
    super::keep_editor_files(&root, Missing::Leave);
    for manifest in &migration.manifests {
        say!(
            "{}: says what it inherited from the workspace",
            manifest.display()
        );
    }
    if migration.config {
        say!(
            "{}: the judge profile and the shared target folder, for every package under it",
            root.join(".cargo/config.toml").display()
        );
    }
    if !migration.moved.is_empty() {
        say!("{}", migration.moved);
    }
    if migration.manifests.is_empty() && !migration.config && migration.moved.is_empty() {
        say!("nothing to do: this workspace keeps its problems apart already");
    }
    Ok(ExitCode::SUCCESS)
}
