//! A headless Chromium driven over the DevTools protocol (JSON messages on a WebSocket): one
//! page, scripts evaluated in it, keys pressed as a user presses them. Without chromium the
//! page's tests say so and pass, except under CI (`CI` set, as `.ci/run` does), where they fail.

use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tungstenite::{Message, WebSocket};

/// Says why the page is not checked; under CI, fails.
pub fn skip(why: &str) {
    assert!(
        std::env::var_os("CI").is_none(),
        "under CI, chromium runs: {why}"
    );
    eprintln!("the page is not checked: {why}");
}

/// A headless Chromium with one page open, killed when dropped.
pub struct Browser {
    child: Child,
    socket: WebSocket<TcpStream>,
    /// The page's session (its messages name it).
    session: String,
    next: u64,
    _profile: tempfile::TempDir,
}

impl Browser {
    /// Chromium showing `url`; `None` without chromium (said).
    pub fn open(url: &str) -> Option<Browser> {
        let profile = tempfile::tempdir().expect("a profile directory");
        let spawned = Command::new("chromium")
            .args(["--headless", "--no-sandbox", "--disable-gpu"])
            .arg("--remote-debugging-port=0")
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .args(["--window-size=1000,760", "about:blank"])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn();
        let mut child = match spawned {
            Ok(child) => child,
            Err(error) => {
                skip(&format!("chromium does not start: {error}"));
                return None;
            }
        };
        // Its address is the line `DevTools listening on ws://...`; the rest is read on, by a
        // thread, so that chromium never writes into a closed pipe.
        let mut lines = BufReader::new(child.stderr.take().expect("its stderr")).lines();
        let address = lines
            .by_ref()
            .map_while(Result::ok)
            .find_map(|line| Some(line.split_once("DevTools listening on ")?.1.to_string()));
        std::thread::spawn(move || lines.for_each(drop));
        let Some(address) = address else {
            let _ = child.kill();
            skip("chromium gave no DevTools address");
            return None;
        };
        let host = address
            .trim_start_matches("ws://")
            .split('/')
            .next()
            .expect("a host");
        let stream = TcpStream::connect(host).expect("connects to chromium");
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .expect("a timeout");
        let (socket, _) = tungstenite::client(address.as_str(), stream)
            .map_err(|error| error.to_string())
            .expect("the DevTools handshake");
        let mut browser = Browser {
            child,
            socket,
            session: String::new(),
            next: 0,
            _profile: profile,
        };
        let target = browser.call("Target.createTarget", serde_json::json!({ "url": url }));
        let params = serde_json::json!({ "targetId": target["targetId"], "flatten": true });
        let attached = browser.call("Target.attachToTarget", params);
        browser.session = attached["sessionId"].as_str().expect("a session").into();
        Some(browser)
    }

    /// Calls `method` (on the page once attached); its result.
    fn call(&mut self, method: &str, params: serde_json::Value) -> serde_json::Value {
        self.next += 1;
        let mut message =
            serde_json::json!({ "id": self.next, "method": method, "params": params });
        if !self.session.is_empty() {
            message["sessionId"] = self.session.clone().into();
        }
        self.socket
            .send(Message::text(message.to_string()))
            .expect("sent to chromium");
        loop {
            let Message::Text(text) = self.socket.read().expect("a message from chromium") else {
                continue;
            };
            let reply: serde_json::Value = serde_json::from_str(text.as_str()).expect("JSON");
            if reply["id"] == self.next {
                assert!(reply["error"].is_null(), "{method}: {reply}");
                return reply["result"].clone();
            }
        }
    }

    /// The value of the script `expression` in the page.
    pub fn eval(&mut self, expression: &str) -> serde_json::Value {
        let params = serde_json::json!({
            "expression": expression, "returnByValue": true, "awaitPromise": true,
        });
        let result = self.call("Runtime.evaluate", params);
        assert!(
            result["exceptionDetails"].is_null(),
            "{expression}: {result}"
        );
        result["result"]["value"].clone()
    }

    /// Waits until `expression` is true, for at most `seconds`; whether it became true.
    pub fn until(&mut self, expression: &str, seconds: u64) -> bool {
        let since = Instant::now();
        while since.elapsed() < Duration::from_secs(seconds) {
            if self.eval(expression) == true {
                return true;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        false
    }

    /// Presses and releases `key` (a `KeyboardEvent.key`, with its key code).
    pub fn key(&mut self, key: &str, code: u32) {
        for kind in ["keyDown", "keyUp"] {
            let params = serde_json::json!({
                "type": kind, "key": key, "code": key, "windowsVirtualKeyCode": code,
            });
            self.call("Input.dispatchKeyEvent", params);
        }
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
