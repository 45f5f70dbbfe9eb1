"""What the CORS check (interop/checks/cors.sh) asserts of the page's reports
(REPORTS/app.json, REPORTS/evil.json, from interop/cors/page.html) and of
Chromium's network logs (LOGS/app.netlog.json, LOGS/evil.netlog.json): the
page's fetch cannot see a preflight, the browser's log does.

Usage: python verify.py REPORTS LOGS APP_ORIGIN EVIL_ORIGIN RESOURCE ISSUER
Prints each assertion; exits 1 naming every one that failed.
"""

import json
import os
import sys

failures = []


def expect(condition: bool, what: str, seen=None) -> None:
    if condition:
        print(f"ok: {what}")
    else:
        failures.append(what)
        print(f"FAILED: {what}" + ("" if seen is None else f" (seen: {json.dumps(seen)})"))


def load(path: str):
    try:
        with open(path) as file:
            return json.load(file)
    except (OSError, ValueError) as error:
        failures.append(f"{path} unreadable: {error}")
        print(f"FAILED: {path} unreadable: {error}")
        return None


def preflights(netlog: dict, url: str) -> tuple[list, list]:
    """The preflights Chromium sent before requests to `url`: the results
    it accepted (fresh from the server, not from its cache) and the errors."""
    types = {number: name for name, number in netlog["constants"]["logEventTypes"].items()}
    urls = {}
    results, errors = [], []
    for event in netlog["events"]:
        name = types.get(event["type"])
        source = event.get("source", {}).get("id")
        params = event.get("params") or {}
        if name == "CORS_REQUEST" and "url" in params:
            urls[source] = params["url"]
        elif name == "CORS_PREFLIGHT_RESULT" and urls.get(source) == url:
            results.append(params)
        elif name == "CORS_PREFLIGHT_ERROR" and urls.get(source) == url:
            errors.append(params)
    return results, errors


def main(reports, logs, app_origin, evil_origin, resource, issuer) -> None:
    metadata_url = resource.replace("/mcp", "/.well-known/oauth-protected-resource/mcp", 1)

    app = load(os.path.join(reports, "app.json")) or {}
    steps = app.get("steps", {})
    expect("fatal" not in app, "the allowed page ran to its end", app.get("fatal"))
    expect(app.get("origin") == app_origin, f"the allowed page's origin is {app_origin}", app.get("origin"))

    init = steps.get("initialize", {})
    expect(init.get("ok") and init.get("status") == 200,
           "initialize with Authorization and MCP-Protocol-Version: 200, readable", init)
    expect(bool(init.get("session")), "the page read Mcp-Session-Id (exposed)", init.get("session"))
    expect(init.get("protocolVersion") == "2025-11-25", "initialize's result read: protocolVersion 2025-11-25", init)

    initialized = steps.get("initialized", {})
    expect(initialized.get("ok") and initialized.get("status") == 202,
           "notifications/initialized in the session: 202", initialized)

    listed = steps.get("list", {})
    expect(listed.get("ok") and listed.get("status") == 200 and "echo" in listed.get("tools", []),
           "tools/list read, echo among the tools", listed)

    call = steps.get("call", {})
    expect(call.get("ok") and call.get("status") == 200 and not call.get("isError")
           and call.get("text") == f"hello from {app_origin}",
           "tools/call of echo read: the value sent, back", call)

    delete = steps.get("delete", {})
    expect(delete.get("ok") and delete.get("status") in (200, 202, 204),
           "DELETE of the session (a method not CORS-safelisted): answered, readable", delete)

    refused = steps.get("unauthorized", {})
    challenge = refused.get("wwwAuthenticate") or ""
    expect(refused.get("ok") and refused.get("status") == 401, "a POST without a token: 401, readable", refused)
    expect(challenge.startswith("Bearer") and f'resource_metadata="{metadata_url}"' in challenge,
           "the page read the 401's WWW-Authenticate (exposed), naming the metadata", challenge)

    metadata = steps.get("metadata", {})
    document = metadata.get("document") or {}
    expect(metadata.get("ok") and metadata.get("status") == 200 and document.get("resource") == resource
           and document.get("authorization_servers") == [issuer],
           "the protected resource metadata read from the allowed page", metadata)

    evil = load(os.path.join(reports, "evil.json")) or {}
    steps = evil.get("steps", {})
    expect("fatal" not in evil, "the refused page ran to its end", evil.get("fatal"))
    expect(evil.get("origin") == evil_origin, f"the refused page's origin is {evil_origin}", evil.get("origin"))
    for name, what in [("initialize", "a preflighted initialize with a token"),
                       ("simple", "a simple POST (no preflight; the server's 403 has no CORS headers)")]:
        outcome = steps.get(name, {})
        expect(outcome.get("ok") is False and outcome.get("error") == "TypeError",
               f"from the refused origin, {what} fails in the page: TypeError", outcome)
    metadata = steps.get("metadata", {})
    expect(metadata.get("ok") and metadata.get("status") == 200
           and (metadata.get("document") or {}).get("resource") == resource,
           "the metadata, public (*), is read from the refused origin too", metadata)

    netlog = load(os.path.join(logs, "app.netlog.json"))
    if netlog is not None:
        results, errors = preflights(netlog, resource)
        allowed_headers = ",".join(result.get("access-control-allow-headers", "") for result in results).lower()
        expect(bool(results) and not errors, "Chromium sent the allowed page's preflight and accepted it",
               {"results": results, "errors": errors})
        expect("authorization" in allowed_headers and "mcp-protocol-version" in allowed_headers,
               "the preflight allowed Authorization and MCP-Protocol-Version", allowed_headers)
    netlog = load(os.path.join(logs, "evil.netlog.json"))
    if netlog is not None:
        results, errors = preflights(netlog, resource)
        expect(bool(errors) and not results, "Chromium sent the refused page's preflight and failed it",
               {"results": results, "errors": errors})

    if failures:
        print(f"{len(failures)} failed:", *failures, sep="\n  ")
        sys.exit(1)


if __name__ == "__main__":
    main(*sys.argv[1:])
