//! The server answers only requests meant for it: the Host must name this
//! server (an IP address, `localhost`, or the name given with `--host`, and
//! its port), and an Origin, when a browser sends one, must be this
//! server's own. A web page on another site that resolves its name to
//! 127.0.0.1 (DNS rebinding), or a page on another local port, is refused.

use std::net::IpAddr;

use axum::extract::{Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

/// What a request's Host and Origin may say.
#[derive(Clone, Debug)]
pub struct Guard {
    port: u16,
    /// The `--host` name, when it is a name rather than an address.
    host_name: Option<String>,
}

impl Guard {
    pub fn new(host: &str, port: u16) -> Guard {
        let host_name = (host.parse::<IpAddr>().is_err()).then(|| host.to_ascii_lowercase());
        Guard { port, host_name }
    }

    /// Whether `authority` (`host[:port]`) names this server.
    pub fn allows_authority(&self, authority: &str) -> bool {
        let (host, port) = split_authority(authority);
        let port_ok = match port {
            Some(port) => port.parse::<u16>() == Ok(self.port),
            None => self.port == 80,
        };
        let host = host.to_ascii_lowercase();
        let host_ok = host == "localhost"
            || host
                .trim_start_matches('[')
                .trim_end_matches(']')
                .parse::<IpAddr>()
                .is_ok()
            || self.host_name.as_deref() == Some(host.as_str());
        port_ok && host_ok
    }

    /// Why the request is refused, if it is.
    pub fn check(&self, headers: &HeaderMap) -> Result<(), String> {
        let host = headers
            .get(header::HOST)
            .and_then(|v| v.to_str().ok())
            .ok_or("no Host header")?;
        if !self.allows_authority(host) {
            return Err(format!("Host '{host}' is not this server"));
        }
        if let Some(origin) = headers.get(header::ORIGIN) {
            let origin = origin.to_str().map_err(|_| "unreadable Origin")?;
            let authority = origin.strip_prefix("http://").unwrap_or("");
            if authority.is_empty() || authority.contains('/') || !self.allows_authority(authority)
            {
                return Err(format!("Origin '{origin}' is not this server"));
            }
        }
        Ok(())
    }
}

/// `host` and `port` of `host:port`, `[v6]:port` or a bare host.
fn split_authority(authority: &str) -> (&str, Option<&str>) {
    if let Some(rest) = authority.strip_prefix('[') {
        return match rest.split_once(']') {
            Some((host, tail)) => (host, tail.strip_prefix(':')),
            None => (authority, None),
        };
    }
    match authority.rsplit_once(':') {
        Some((host, port)) if !host.contains(':') => (host, Some(port)),
        _ => (authority, None),
    }
}

/// The middleware: refuses with 403 and one line saying why.
pub async fn check_request(State(guard): State<Guard>, request: Request, next: Next) -> Response {
    match guard.check(request.headers()) {
        Ok(()) => next.run(request).await,
        Err(why) => {
            log::warn!("refused a request: {why}");
            (StatusCode::FORBIDDEN, format!("forbidden: {why}\n")).into_response()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_this_servers_names_and_port_pass() {
        let guard = Guard::new("127.0.0.1", 7979);
        assert!(guard.allows_authority("127.0.0.1:7979"));
        assert!(guard.allows_authority("localhost:7979"));
        assert!(guard.allows_authority("[::1]:7979"));
        assert!(!guard.allows_authority("localhost:8000"));
        assert!(!guard.allows_authority("evil.example:7979"));
        assert!(!guard.allows_authority("127.0.0.1"));
        let named = Guard::new("board.lan", 80);
        assert!(named.allows_authority("board.lan"));
        assert!(named.allows_authority("BOARD.lan:80"));
        assert!(!named.allows_authority("other.lan"));
    }

    #[test]
    fn origins_must_be_this_server() {
        let guard = Guard::new("127.0.0.1", 7979);
        let headers = |host: &str, origin: Option<&str>| {
            let mut map = HeaderMap::new();
            map.insert(header::HOST, host.parse().unwrap());
            if let Some(origin) = origin {
                map.insert(header::ORIGIN, origin.parse().unwrap());
            }
            map
        };
        assert!(guard.check(&headers("127.0.0.1:7979", None)).is_ok());
        assert!(
            guard
                .check(&headers("127.0.0.1:7979", Some("http://localhost:7979")))
                .is_ok()
        );
        let refused = guard.check(&headers("127.0.0.1:7979", Some("http://evil.example:7979")));
        assert_eq!(
            refused.unwrap_err(),
            "Origin 'http://evil.example:7979' is not this server"
        );
        assert!(
            guard
                .check(&headers("127.0.0.1:7979", Some("null")))
                .is_err()
        );
        assert!(guard.check(&headers("rebound.example:7979", None)).is_err());
    }
}
