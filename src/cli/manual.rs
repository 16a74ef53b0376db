//! `fifteen completions SHELL` and `fifteen man`: the shell completions and the manual pages,
//! generated from the command line's own definitions (clap_complete, clap_mangen), so that they
//! never drift from `--help`. Completions and the page of `fifteen` go to stdout; `man --dir
//! DIR` writes one page per command and subcommand (`fifteen-solve.1`, `fifteen-tables-build.1`
//! …) into DIR.

use super::{Cli, Failure};
use clap::{Args, CommandFactory};
use clap_complete::Shell;
use std::io::Write;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell: bash, zsh, fish, elvish or powershell (e.g. `fifteen completions bash >
    /// ~/.local/share/bash-completion/completions/fifteen`).
    #[arg(value_enum)]
    pub shell: Shell,
}

#[derive(Debug, Args)]
pub struct ManArgs {
    /// Writes a page per command and subcommand into DIR (made if missing) instead of the page
    /// of `fifteen` to stdout.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

pub fn completions(args: &CompletionsArgs) -> Result<(), Failure> {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut Cli::command(), "fifteen", &mut script);
    super::out().write_all(&script)?;
    Ok(())
}

pub fn man(args: &ManArgs) -> Result<(), Failure> {
    let command = Cli::command();
    match &args.dir {
        None => {
            let mut page = Vec::new();
            clap_mangen::Man::new(command).render(&mut page)?;
            super::out().write_all(&page)?;
        }
        Some(dir) => {
            let failed = |error: std::io::Error| {
                Failure::BadInput(format!(
                    "cannot write the manual pages into {}: {error}",
                    dir.display()
                ))
            };
            std::fs::create_dir_all(dir).map_err(failed)?;
            clap_mangen::generate_to(command, dir).map_err(failed)?;
        }
    }
    Ok(())
}
