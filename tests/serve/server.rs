//! A running `fifteen serve --port 0` for the tests, and a small HTTP/1.1 client of std's
//! sockets (one request a connection, `Connection: close`).

use super::common;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Stdio};
use std::time::Duration;

/// A running `fifteen serve --port 0`, killed when dropped.
pub struct Server {
    child: Child,
    address: String,
}

impl Server {
    pub fn start(extra: &[&str]) -> Server {
        let mut child = common::command()
            .args(["serve", "--port", "0"])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("fifteen serve starts");
        let mut line = String::new();
        let stdout = child.stdout.take().expect("its stdout");
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("its first line");
        let address = line
            .trim()
            .strip_prefix("fifteen serve: http://")
            .and_then(|rest| rest.strip_suffix('/'))
            .unwrap_or_else(|| panic!("the URL line: {line:?}"))
            .to_string();
        assert!(address.starts_with("127.0.0.1:"), "{address}");
        Server { child, address }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.address)
    }

    /// Sends one request (`body`: a POST's), returning the status and the body.
    pub fn request(&self, method: &str, path: &str, body: &[u8]) -> (u16, String) {
        let mut stream = self.send(method, path, body);
        let mut response = Vec::new();
        stream.read_to_end(&mut response).expect("the response");
        let text = String::from_utf8_lossy(&response).into_owned();
        let (head, body) = text.split_once("\r\n\r\n").expect("headers and body");
        let status = head
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .expect("a status");
        (status, body.to_string())
    }

    /// The connection of a request sent, its response unread.
    pub fn send(&self, method: &str, path: &str, body: &[u8]) -> TcpStream {
        let mut stream = TcpStream::connect(&self.address).expect("connects");
        stream
            .set_read_timeout(Some(Duration::from_secs(120)))
            .expect("a timeout");
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            self.address,
            body.len()
        );
        stream.write_all(head.as_bytes()).expect("sent");
        stream.write_all(body).expect("sent");
        stream
    }

    pub fn get(&self, path: &str) -> (u16, String) {
        self.request("GET", path, b"")
    }

    pub fn json(&self, path: &str) -> serde_json::Value {
        let (status, body) = self.get(path);
        assert_eq!(status, 200, "{path}: {body}");
        serde_json::from_str(&body).expect("JSON")
    }

    /// The searches running now.
    pub fn running(&self) -> u64 {
        self.json("/api/stats")["running"]
            .as_u64()
            .expect("a count")
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
