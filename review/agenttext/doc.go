// Package agenttext renders what an agent reads of a decision: the desk
// answers with a structured review.Outcome, and Outcome here makes every
// sentence of it, at the edge, for each door that speaks to an agent (the
// protocol's answers in review/deskrpc, which the MCP bridge and the hooks
// of cmd/deskctl pass on). A review.Failure — an edit that did not apply,
// a write refused, the desk's own reason for a rejection — is rendered by
// Failure, from one table of its kinds; the window shows the same text.
// The goldens are review/testdata/outcome and review/testdata/failure.
package agenttext
