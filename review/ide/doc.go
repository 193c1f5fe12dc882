// Package ide opens the agent front doors that speak an IDE's protocol, so
// agents send their edits to the desk as they would to an editor: the
// Claude Code IDE integration (WebSocket MCP, lock file) and the Gemini CLI
// IDE companion (MCP over streamable HTTP, discovery file). What the agents
// expect of them is in docs/agent-protocols.md §1 and §2.
package ide
