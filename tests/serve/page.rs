//! The page of `fifteen serve` in headless Chromium: a `?position=` link, moves by keys and
//! clicks (a run at once in MTM), each followed by the distances `fifteen solve` gives for the
//! position reached; a solution played to the goal; a bad position pasted, answered with the
//! CLI's line; and the DOM that `chromium --dump-dom` prints.

use super::devtools::{skip, Browser};
use super::{common, solved, Server, EIGHTS};
use std::process::Stdio;

/// The script that is true once the page shows the distances of its position.
const SHOWN: &str =
    "document.querySelector('#distance[data-distance-stm][data-distance-mtm]') !== null";

/// The position of the page's URL, once it shows its distances; checked against `fifteen solve`
/// in both metrics; and its STM distance.
fn shown_and_checked(browser: &mut Browser) -> (String, u64) {
    assert!(browser.until(SHOWN, 30), "no distances shown");
    let position = browser.eval("new URLSearchParams(location.search).get('position')");
    let position = position
        .as_str()
        .expect("a position in the URL")
        .to_string();
    let mut stm = 0;
    for metric in ["stm", "mtm"] {
        let shown = browser.eval(&format!(
            "document.getElementById('distance').getAttribute('data-distance-{metric}')"
        ));
        let length = solved(&["--metric", metric, &position])["length"].clone();
        assert_eq!(shown, length.to_string(), "{position} {metric}");
        if metric == "stm" {
            stm = length.as_u64().expect("a length");
        }
    }
    (position, stm)
}

#[test]
fn keys_clicks_and_a_solution_in_the_browser() {
    let server = Server::start(&[]);
    let url = server.url(&format!("/?position={}", EIGHTS[2]));
    let Some(mut browser) = Browser::open(&url) else {
        return;
    };
    let (mut position, _) = shown_and_checked(&mut browser);
    assert_eq!(position, EIGHTS[2]);
    // The size box, left empty, names the board shown.
    let size = browser.eval("document.getElementById('size').placeholder");
    assert_eq!(size, "3x3");
    let keys = [
        ("ArrowDown", 40),
        ("ArrowRight", 39),
        ("ArrowUp", 38),
        ("ArrowLeft", 37),
    ];
    let mut moved = 0;
    for (key, code) in keys.iter().cycle().take(6) {
        browser.key(key, *code);
        let (now, _) = shown_and_checked(&mut browser);
        moved += usize::from(now != position);
        position = now;
    }
    assert!(moved >= 3, "{moved} of 6 arrows moved a tile");
    // A highlighted tile, clicked: one move nearer.
    let (_, before) = shown_and_checked(&mut browser);
    browser.eval("document.querySelector('.tile.hint').click()");
    let (_, after) = shown_and_checked(&mut browser);
    assert_eq!(after + 1, before);
    // The solution, played to the goal.
    browser.eval("document.getElementById('solve').click()");
    let solution = "document.getElementById('moves').textContent.length > 0";
    assert!(browser.until(solution, 30), "no solution shown");
    browser.eval("document.getElementById('speed').value = 20");
    browser.eval("document.getElementById('play').click()");
    let at_goal = "document.getElementById('distance').getAttribute('data-distance-stm') === '0'";
    assert!(
        browser.until(at_goal, 30),
        "the animation did not reach the goal"
    );
    assert_eq!(
        shown_and_checked(&mut browser),
        ("123456780".to_string(), 0)
    );
}

#[test]
fn a_click_slides_a_run_in_the_multi_tile_metric() {
    let server = Server::start(&[]);
    // The blank in the bottom row's middle: the tile two cells above it slides with the one
    // between them.
    let url = server.url("/?position=867254301&metric=mtm");
    let Some(mut browser) = Browser::open(&url) else {
        return;
    };
    shown_and_checked(&mut browser);
    browser.eval("document.querySelector('[data-cell=\"1\"]').click()");
    let (position, _) = shown_and_checked(&mut browser);
    assert_eq!(position, "807264351");
}

#[test]
fn a_bad_position_pasted_shows_the_command_lines_line() {
    let server = Server::start(&[]);
    let Some(mut browser) = Browser::open(&server.url(&format!("/?position={}", EIGHTS[0]))) else {
        return;
    };
    shown_and_checked(&mut browser);
    browser.eval("document.getElementById('paste').value = '12345678'");
    browser.eval("document.getElementById('set').click()");
    let error = "document.getElementById('error').textContent";
    assert!(
        browser.until(&format!("{error}.length > 0"), 30),
        "no error shown"
    );
    let line = common::refused(&["solve", "12345678"]);
    assert_eq!(browser.eval(error), line.trim());
    // The position shown stays.
    assert_eq!(shown_and_checked(&mut browser).0, EIGHTS[0]);
}

/// `chromium --headless --dump-dom` of `url`; `None` without chromium (outside CI).
fn dom(url: &str) -> Option<String> {
    let output = std::process::Command::new("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--dump-dom",
            "--virtual-time-budget=10000",
            url,
        ])
        .stderr(Stdio::null())
        .output();
    match output {
        Ok(output) if output.status.success() => {
            Some(String::from_utf8_lossy(&output.stdout).into_owned())
        }
        _ => {
            skip("chromium --dump-dom failed");
            None
        }
    }
}

#[test]
fn the_page_shows_the_distances_in_a_browser() {
    let server = Server::start(&[]);
    for position in EIGHTS {
        let Some(page) = dom(&server.url(&format!("/?position={position}"))) else {
            return;
        };
        for metric in ["stm", "mtm"] {
            let length = solved(&["--metric", metric, position])["length"].clone();
            let attribute = format!("data-distance-{metric}=\"{length}\"");
            assert!(page.contains(&attribute), "{attribute}: {page}");
        }
    }
    let line = common::refused(&["solve", "12345678"]);
    let Some(page) = dom(&server.url("/?position=12345678")) else {
        return;
    };
    let error = format!("<div id=\"error\">{}</div>", line.trim());
    assert!(page.contains(&error), "{error}: {page}");
}
