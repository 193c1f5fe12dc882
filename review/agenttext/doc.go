// Package agenttext renders what an agent reads of a decision: the desk
// answers with a structured review.Outcome, and Outcome here makes every
// sentence of it, at the edge, for each door that speaks to an agent (the
// protocol's answers in review/deskrpc, which the MCP bridge and the hooks
// of cmd/deskctl pass on). The goldens are review/testdata/outcome.
package agenttext
