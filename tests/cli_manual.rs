//! `fifteen completions` and `fifteen man` are produced from the command line's definitions:
//! every shell's script names every command, the bash script is valid bash and completes
//! `fifteen so` to `solve`; the page on stdout is fifteen(1) listing every command; `man --dir`
//! writes one page per command and subcommand, each with the options its `--help` gives; a
//! folder that cannot be made is one line and status 2.
#![forbid(unsafe_code)]

mod common;

use common::{refused, run};
use std::process::Command;

const COMMANDS: [&str; 15] = [
    "solve",
    "scramble",
    "apply",
    "invert",
    "simplify",
    "convert",
    "crosscheck",
    "compare",
    "sliding",
    "levels",
    "tables",
    "shard",
    "serve",
    "completions",
    "man",
];

#[test]
fn every_shell_gets_every_command() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let (status, script, err) = run(&["completions", shell]);
        assert_eq!((status, err.as_str()), (0, ""), "{shell}");
        for command in COMMANDS {
            assert!(script.contains(command), "{shell}: no {command}");
        }
    }
    let err = refused(&["completions", "tcsh"]);
    assert!(err.contains("invalid value 'tcsh'"), "{err}");
}

/// What the bash script completes: `probes` run after loading it (each sets the words and
/// calls `_fifteen`), then `COMPREPLY` echoed after each; (status, output, errors).
fn bash_completes(probes: &[&str]) -> (i32, String, String) {
    let (_, script, _) = run(&["completions", "bash"]);
    let dir = tempfile::tempdir().expect("a scratch directory");
    let path = dir.path().join("fifteen.bash");
    std::fs::write(&path, &script).expect("written");
    let mut probe = format!(
        "source {}; complete -p fifteen >/dev/null || exit 9; ",
        path.display()
    );
    for line in probes {
        probe += &format!("{line}; echo \"${{COMPREPLY[@]}}\"; ");
    }
    let output = Command::new("bash")
        .args(["--norc", "-c", &probe])
        .output()
        .expect("bash runs");
    common::texts(&output)
}

#[test]
fn the_bash_script_completes_commands_and_options() {
    // Loaded, then asked what `fifteen so` and `fifteen apply --bl` complete to.
    let (status, out, err) = bash_completes(&[
        "COMP_WORDS=(fifteen so); COMP_CWORD=1; _fifteen fifteen so fifteen",
        "COMP_WORDS=(fifteen apply --bl); COMP_CWORD=2; _fifteen fifteen --bl apply",
    ]);
    assert_eq!(status, 0, "{err}");
    assert_eq!(out, "solve\n--blank\n", "{err}");
}

/// The values of `--heuristic` and `sliding --puzzle` are completed (issue 53: none were
/// offered), and the arguments still take what they took: groups written by the user, a wrong
/// puzzle named by the command itself; `--help` does not list the values (its text names them).
#[test]
fn the_bash_script_completes_heuristics_and_puzzles() {
    let (status, out, err) = bash_completes(&[
        "COMP_WORDS=(fifteen solve --heuristic 6-6); COMP_CWORD=3; _fifteen fifteen 6-6 --heuristic",
        "COMP_WORDS=(fifteen tables build --heuristic ma); COMP_CWORD=4; _fifteen fifteen ma --heuristic",
        "COMP_WORDS=(fifteen sliding --puzzle ''); COMP_CWORD=3; _fifteen fifteen '' --puzzle",
    ]);
    assert_eq!(status, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}{err}");
    let words = |line: &str| line.split(' ').map(str::to_string).collect::<Vec<_>>();
    assert_eq!(words(lines[0]), ["6-6-3", "6-6-6-6"], "{out}");
    assert_eq!(words(lines[1]), ["manhattan"], "{out}");
    let puzzles = words(lines[2]);
    for name in ["klotski", "century", "eight_puzzle", "bickford_4x4"] {
        assert!(puzzles.iter().any(|p| p == name), "{name}: {out}");
    }
    // What was accepted still is; a wrong name is still the command's own line.
    let (status, out, err) = run(&[
        "solve",
        "--size",
        "3x3",
        "--heuristic",
        "1-2-3-4/5-6-7-8",
        "123456708",
    ]);
    assert_eq!(status, 0, "{err}");
    assert!(out.contains("Solution in 1+0 moves: 8 ("), "{out}");
    let err = refused(&["sliding", "--puzzle", "nonesuch", "--style", "0"]);
    assert!(
        err.starts_with("there is no puzzle \"nonesuch\" in the library"),
        "{err}"
    );
    let (status, help, _) = run(&["solve", "--help"]);
    assert_eq!(status, 0);
    assert!(!help.contains("possible values"), "{help}");
}

#[test]
fn the_manual_pages_cover_every_command() {
    let (status, page, _) = run(&["man"]);
    assert_eq!(status, 0);
    assert!(page.contains(".TH fifteen 1"), "{page}");
    for command in COMMANDS {
        assert!(
            page.contains(&format!("fifteen\\-{command}(1)")),
            "{command}"
        );
    }
    let dir = tempfile::tempdir().expect("a scratch directory");
    let folder = dir.path().join("man1");
    let (status, out, err) = run(&["man", "--dir", folder.to_str().expect("UTF-8")]);
    assert_eq!((status, out.as_str(), err.as_str()), (0, "", ""));
    let pages = [
        vec!["solve"],
        vec!["apply"],
        vec!["tables", "build"],
        vec!["shard", "run"],
    ];
    for words in pages {
        let name = format!("fifteen-{}.1", words.join("-"));
        let page = std::fs::read_to_string(folder.join(&name)).expect("the page is written");
        assert!(page.starts_with(".ie"), "{name}");
        let mut args = words.clone();
        args.push("--help");
        let (_, help, _) = run(&args);
        for option in help
            .lines()
            .filter_map(|l| l.trim_start().strip_prefix("--"))
            .filter_map(|l| l.split([' ', '<', '=']).next())
        {
            // roff escapes each hyphen.
            let escaped = format!("\\-\\-{}", option.replace('-', "\\-"));
            assert!(page.contains(&escaped), "{name}: no --{option}");
        }
    }
    let count = std::fs::read_dir(&folder).expect("the folder").count();
    // fifteen, its 15 commands, tables' and shard's 2 and 3 subcommands.
    assert_eq!(count, 1 + COMMANDS.len() + 2 + 3);
    let file = dir.path().join("a-file");
    std::fs::write(&file, "").expect("written");
    let under = file.join("man1");
    let err = refused(&["man", "--dir", under.to_str().expect("UTF-8")]);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("cannot write the manual pages into "),
        "{err}"
    );
}
