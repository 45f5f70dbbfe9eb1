//! The protected resource metadata is public: a browser OAuth client of
//! any origin reads it (and its preflight is answered) before it has a
//! token, while MCP's endpoint still refuses an origin not allowed.

use super::Fixture;
use crate::support::bounded;
use reqwest::Method;

#[tokio::test]
async fn the_metadata_is_readable_from_any_origin() {
    bounded(async {
        let fixture = Fixture::default().await;
        let page = "https://some-client.example.org";
        let path = "/.well-known/oauth-protected-resource/mcp";

        let asked = fixture
            .client
            .request(Method::OPTIONS, fixture.url(path))
            .header("Origin", page)
            .header("Access-Control-Request-Method", "GET")
            .header("Access-Control-Request-Headers", "mcp-protocol-version")
            .send()
            .await
            .unwrap();
        assert_eq!(asked.status(), 204);
        assert_eq!(asked.headers()["access-control-allow-origin"], "*");
        assert_eq!(
            asked.headers()["access-control-allow-headers"],
            "mcp-protocol-version"
        );

        let read = fixture
            .client
            .get(fixture.url(path))
            .header("Origin", page)
            .send()
            .await
            .unwrap();
        assert_eq!(read.status(), 200);
        assert_eq!(read.headers()["access-control-allow-origin"], "*");
        assert!(read.text().await.unwrap().contains("authorization_servers"));

        // The endpoint itself is not this page's to use.
        let refused = fixture
            .post_to("/mcp", None, super::LIST, &[("Origin", page)])
            .await;
        assert_eq!(refused.status, 403, "{refused:?}");
        fixture.server.stop().await;
    })
    .await;
}
