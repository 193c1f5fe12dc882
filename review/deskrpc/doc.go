// Package deskrpc is the desk's native protocol (docs/protocol.md):
// JSON-RPC 2.0, one object per line, on a private Unix socket — the server
// over a review.Desk, the client deskctl and the MCP bridge use, and the
// socket itself (0700 directory, 0600 socket, peer uid checked).
package deskrpc
