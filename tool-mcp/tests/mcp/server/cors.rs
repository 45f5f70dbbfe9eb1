//! CORS for the allowed origins: a preflight answered without a token,
//! every answer to an allowed origin (a refusal too) readable by its page
//! with MCP's headers exposed, nothing for an origin that is not allowed.
//! The browser's side is interop/checks/cors.sh (headless Chromium).

use crate::support::{INITIALIZE, TOKEN, bearer, bounded, post, send, start};

const PAGE: &str = "https://app.example.com";

/// `OPTIONS /mcp` as a browser sends it before a POST with a token.
fn preflight(host: &str, origin: &str) -> Vec<u8> {
    format!(
        "OPTIONS /mcp HTTP/1.1\r\nHost: {host}\r\nOrigin: {origin}\r\n\
         Access-Control-Request-Method: POST\r\n\
         Access-Control-Request-Headers: authorization, content-type, mcp-protocol-version\r\n\
         Connection: close\r\n\r\n"
    )
    .into_bytes()
}

#[tokio::test]
async fn a_page_of_an_allowed_origin_can_call_and_read_the_answers() {
    bounded(async {
        let server = start(|http| http.with_bearer_token(TOKEN).with_allowed_origins([PAGE])).await;
        let host = server.host();

        // The preflight carries no token: 204, the page's headers allowed.
        let asked = send(server.address, preflight(&host, PAGE)).await;
        assert_eq!(asked.status, 204, "{asked:?}");
        assert_eq!(asked.header("access-control-allow-origin"), Some(PAGE));
        let methods = asked.header("access-control-allow-methods").unwrap();
        for method in ["GET", "POST", "DELETE"] {
            assert!(methods.contains(method), "{methods}");
        }
        assert_eq!(
            asked.header("access-control-allow-headers"),
            Some("authorization, content-type, mcp-protocol-version")
        );

        // The POST itself: readable, its session id exposed.
        let authorized = bearer(TOKEN);
        let opened = send(
            server.address,
            post(
                &host,
                &[("Origin", PAGE), ("Authorization", &authorized)],
                INITIALIZE,
            ),
        )
        .await;
        assert_eq!(opened.status, 200, "{opened:?}");
        assert_eq!(opened.header("access-control-allow-origin"), Some(PAGE));
        let exposed = opened.header("access-control-expose-headers").unwrap();
        for header in ["Mcp-Session-Id", "Mcp-Protocol-Version", "WWW-Authenticate"] {
            assert!(exposed.contains(header), "{header} in {exposed}");
        }
        assert!(
            opened.header("vary").unwrap().contains("Origin"),
            "{opened:?}"
        );

        // A refusal is readable too: the page learns why, and where to
        // get a token.
        let refused = send(server.address, post(&host, &[("Origin", PAGE)], INITIALIZE)).await;
        assert_eq!(refused.status, 401, "{refused:?}");
        assert_eq!(refused.header("access-control-allow-origin"), Some(PAGE));
        assert!(refused.header("www-authenticate").is_some());
        server.stop().await;
    })
    .await;
}

#[tokio::test]
async fn an_origin_not_allowed_gets_no_cors_headers() {
    bounded(async {
        let server = start(|http| http.with_bearer_token(TOKEN).with_allowed_origins([PAGE])).await;
        let host = server.host();
        let elsewhere = "https://evil.example.net";
        let asked = send(server.address, preflight(&host, elsewhere)).await;
        assert_eq!(asked.status, 403, "{asked:?}");
        assert_eq!(asked.header("access-control-allow-origin"), None);
        let authorized = bearer(TOKEN);
        let posted = send(
            server.address,
            post(
                &host,
                &[("Origin", elsewhere), ("Authorization", &authorized)],
                INITIALIZE,
            ),
        )
        .await;
        assert_eq!(posted.status, 403, "{posted:?}");
        assert_eq!(posted.header("access-control-allow-origin"), None);
        // Not a preflight (no method asked): the token is still needed.
        let bare = format!(
            "OPTIONS /mcp HTTP/1.1\r\nHost: {host}\r\nOrigin: {PAGE}\r\nConnection: close\r\n\r\n"
        );
        let answered = send(server.address, bare.into_bytes()).await;
        assert_eq!(answered.status, 401, "{answered:?}");
        server.stop().await;
    })
    .await;
}
