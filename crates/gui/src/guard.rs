//! The server answers only requests meant for it: the Host must name this
//! server as it listens (its address, `localhost` when that is a loopback
//! address, the name given with `--host`, or any address of the machine
//! when it listens on all of them; and its port), and an Origin, when a
//! browser sends one, must be the very origin the request is addressed to.
//! A web page on another site that resolves its name to 127.0.0.1 (DNS
//! rebinding), a page on another local port, or a page served by another
//! machine on the same port is refused.

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
    /// The address listened on, when it is one.
    address: Option<IpAddr>,
}

impl Guard {
    pub fn new(host: &str, port: u16) -> Guard {
        let address = host.parse::<IpAddr>().ok();
        let host_name = address.is_none().then(|| host.to_ascii_lowercase());
        Guard {
            port,
            host_name,
            address,
        }
    }

    /// Whether `host` (a name or an address, IPv6 in brackets or not)
    /// names this server.
    fn allows_host(&self, host: &str) -> bool {
        let host = host.to_ascii_lowercase();
        let literal = host.trim_start_matches('[').trim_end_matches(']');
        if let Ok(ip) = literal.parse::<IpAddr>() {
            return match self.address {
                Some(address) if address.is_unspecified() => true,
                Some(address) => ip == address,
                // A name: an address it resolves to would need a lookup;
                // loopback is always this machine.
                None => ip.is_loopback(),
            };
        }
        match (&self.host_name, self.address) {
            (Some(name), _) => *name == host || (host == "localhost" && name == "localhost"),
            (None, Some(address)) => {
                host == "localhost" && (address.is_loopback() || address.is_unspecified())
            }
            (None, None) => false,
        }
    }

    /// Whether `authority` (`host[:port]`) names this server.
    pub fn allows_authority(&self, authority: &str) -> bool {
        let (host, port) = split_authority(authority);
        let port_ok = match port {
            Some(port) => port.parse::<u16>() == Ok(self.port),
            None => self.port == 80,
        };
        port_ok && self.allows_host(host)
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
            let same =
                authority.eq_ignore_ascii_case(host) || same_authority(authority, host, self.port);
            if authority.is_empty() || authority.contains('/') || !same {
                return Err(format!("Origin '{origin}' is not this server"));
            }
        }
        Ok(())
    }
}

/// Whether two authorities name the same host and port (`host` and
/// `host:80` are the same on port 80).
fn same_authority(a: &str, b: &str, port: u16) -> bool {
    let (host_a, port_a) = split_authority(a);
    let (host_b, port_b) = split_authority(b);
    let port_of = |p: Option<&str>| p.map_or(Some(80), |p| p.parse::<u16>().ok());
    host_a.eq_ignore_ascii_case(host_b)
        && port_of(port_a) == port_of(port_b)
        && port_of(port_a) == Some(port)
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
        assert!(!guard.allows_authority("[::1]:7979"));
        assert!(!guard.allows_authority("192.168.1.50:7979"));
        assert!(!guard.allows_authority("localhost:8000"));
        assert!(!guard.allows_authority("evil.example:7979"));
        assert!(!guard.allows_authority("127.0.0.1"));
        let named = Guard::new("board.lan", 80);
        assert!(named.allows_authority("board.lan"));
        assert!(named.allows_authority("BOARD.lan:80"));
        assert!(!named.allows_authority("other.lan"));
        let everywhere = Guard::new("0.0.0.0", 7979);
        assert!(everywhere.allows_authority("192.168.1.50:7979"));
        assert!(everywhere.allows_authority("localhost:7979"));
        assert!(!everywhere.allows_authority("evil.example:7979"));
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
                .check(&headers("localhost:7979", Some("http://localhost:7979")))
                .is_ok()
        );
        // Another name of this server is still another origin.
        assert!(
            guard
                .check(&headers("127.0.0.1:7979", Some("http://localhost:7979")))
                .is_err()
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
        // Another machine's page on the same port, driving this engine.
        assert!(
            guard
                .check(&headers("127.0.0.1:7979", Some("http://192.168.1.50:7979")))
                .is_err()
        );
        let everywhere = Guard::new("0.0.0.0", 7979);
        assert!(
            everywhere
                .check(&headers("127.0.0.1:7979", Some("http://192.168.1.50:7979")))
                .is_err()
        );
        assert!(
            everywhere
                .check(&headers(
                    "192.168.1.50:7979",
                    Some("http://192.168.1.50:7979")
                ))
                .is_ok()
        );
        assert!(guard.check(&headers("rebound.example:7979", None)).is_err());
    }
}
