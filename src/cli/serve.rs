//! `fifteen serve`: the page and its API ([`crate::serve`]) on a local HTTP server. It listens
//! on 127.0.0.1 unless `--host` says otherwise, and prints its URL as one line on stdout once
//! it listens (`--port 0`: a free port), then serves until the process ends (Ctrl-C).

use super::Failure;
use crate::serve::search::Config;
use clap::Args;
use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Port to listen on (0: any free port; the URL printed names it).
    #[arg(long, value_name = "N", default_value_t = 8015)]
    pub port: u16,

    /// Address to listen on (an IP address: 0.0.0.0 for every interface).
    #[arg(long, value_name = "ADDR", default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    pub host: IpAddr,

    /// Open the page in the desktop's browser (xdg-open, or open on macOS).
    #[arg(long)]
    pub open: bool,

    /// Give up a request's search still unfinished after this long (90s, 10m, 2h): it is
    /// answered with status 503 and the line `solve --time-limit` prints.
    #[arg(long, value_name = "DURATION", value_parser = super::parse_duration, default_value = "5m")]
    pub time_limit: super::Duration,

    /// Directory of the pattern-database tables (default: $FIFTEEN_TABLES, else the user's
    /// cache directory).
    #[arg(long, value_name = "DIR")]
    pub tables: Option<std::path::PathBuf>,
}

/// Serves until the process ends.
pub fn run(args: &ServeArgs) -> Result<(), Failure> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|error| Failure::BadInput(format!("cannot start the server: {error}")))?;
    runtime.block_on(serve(args))
}

async fn serve(args: &ServeArgs) -> Result<(), Failure> {
    let address = SocketAddr::new(args.host, args.port);
    let listener = tokio::net::TcpListener::bind(address)
        .await
        .map_err(|error| Failure::BadInput(format!("cannot listen on {address}: {error}")))?;
    let bound = listener.local_addr()?;
    let url = format!("http://{bound}/");
    let mut out = super::out();
    writeln!(out, "fifteen serve: {url}")?;
    out.flush()?;
    drop(out);
    if args.open {
        open(&url);
    }
    let config = Config {
        tables: args.tables.clone(),
        time_limit: (args.time_limit.time, args.time_limit.text.clone()),
        known: Arc::default(),
    };
    let server = Arc::new(crate::serve::lanes::Server::new(config));
    axum::serve(listener, crate::serve::router(server))
        .await
        .map_err(|error| Failure::BadInput(format!("the server failed: {error}")))
}

/// Opens `url` in the desktop's browser; a failure is one line on stderr (the server runs on).
fn open(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else {
        "xdg-open"
    };
    let started = std::process::Command::new(opener)
        .arg(url)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if let Err(error) = started {
        eprintln!("cannot open the browser ({opener}): {error}; open {url}");
    }
}
