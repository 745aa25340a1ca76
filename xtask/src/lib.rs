//! The xtask's reusable parts: finding problems, scaffolding new ones (from the command line or
//! competitive-companion), building them as BOJ would, running one executable under limits,
//! judging its output, rendering reports, telling which files a watch on a problem follows,
//! opening a case in the system's debugger, keeping the editor's launch and task files, and
//! handing a bundle to the clipboard and BOJ's submit page to the browser.
//!
//! The subcommands (`src/main.rs` and one module each) are thin layers over these modules, so
//! `cargo xtask bundle --check` and `cargo xtask stress` can judge with exactly the same code:
//!
//! ```no_run
//! use xtask::run::{command_line::Rules, Program};
//! use xtask::workspace::{self, problem};
//! use xtask::{judge, report};
//!
//! # fn main() -> anyhow::Result<()> {
//! let root = workspace::project_root()?;
//! let problem = problem::resolve(&root, "2239")?;
//! // Any program works here: cargo's judge-profile build, a rustc-built bundle, a command.
//! let solver = Program::from_command_line("python3 sol.py", Rules::here())
//!     .map_err(anyhow::Error::msg)?;
//! let options = judge::JudgeOptions::default();
//! let report = judge::run_samples(&problem, &solver, &options)?;
//! print!("{}", report.render(&report::Style::plain()));
//! assert!(report.all_accepted());
//! # Ok(())
//! # }
//! ```

pub mod bundle;
pub mod companion;
pub mod debug;
pub mod hunt;
pub mod judge;
pub mod listen;
pub mod report;
pub mod run;
pub mod scaffold;
pub mod scale;
pub mod scratch;
pub mod submit;
pub mod validate;
pub mod watch;
pub mod workspace;
