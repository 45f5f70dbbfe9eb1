-- wrk's request for scripts/nginx-load.sh and scripts/stateless-load.sh: a
-- stateless MCP tools/call of echo, as a 2025-06-18 client sends it once its
-- initialize is done (no Mcp-Session-Id: the server keeps none). Every
-- connection repeats it.
wrk.method = "POST"
wrk.body = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"value":"hello"}}}'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json, text/event-stream"
wrk.headers["MCP-Protocol-Version"] = "2025-06-18"
