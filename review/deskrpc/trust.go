package deskrpc

import (
	"context"
	"slices"

	"github.com/diffdesk/diffdesk/review/config"
)

// Trust is the desk's trust store as a reviewer sees it over the protocol
// (startup.Backend): the repository config files whose rules are off, and
// trusting exactly the content shown.
type Trust interface {
	Untrusted() []config.WorkspaceFile
	Trust(f config.WorkspaceFile) error
}

// ShowTrust lets reviewers list and trust the desk's untrusted repository
// configs through t (untrusted, trust). Call it before Serve; without it
// those methods say the desk has no trust store.
func (s *Server) ShowTrust(t Trust) { s.trust = t }

// TrustFile is a repository .diffdesk.toml whose rules are off until the
// person trusts its content: its root, path, content hash, and each rule
// it would turn on, as the desk describes them (config.WorkspaceFile.Rules).
type TrustFile struct {
	Root   string   `json:"root"`
	File   string   `json:"file"`
	SHA256 string   `json:"sha256"`
	Rules  []string `json:"rules"`
}

type untrustedAnswer struct {
	Files []TrustFile `json:"files"`
}

type trustParams struct {
	Root   string `json:"root"`
	SHA256 string `json:"sha256"`
}

func (cc *conn) untrusted(context.Context, noParams) (any, error) {
	a := untrustedAnswer{Files: []TrustFile{}}
	if cc.s.trust == nil {
		return a, nil
	}
	for _, f := range cc.s.trust.Untrusted() {
		a.Files = append(a.Files, TrustFile{Root: f.Root, File: f.File, SHA256: f.SHA256, Rules: f.Rules()})
	}
	return a, nil
}

// trust trusts root's config file if its content is still the one whose
// hash the reviewer was shown; otherwise nothing is trusted.
func (cc *conn) trustFile(_ context.Context, p trustParams) (any, error) {
	if cc.s.trust == nil {
		return nil, &rpcError{Code: codeInvalidParams, Message: "trust: this desk keeps no trust store"}
	}
	un := cc.s.trust.Untrusted()
	i := slices.IndexFunc(un, func(f config.WorkspaceFile) bool { return f.Root == p.Root })
	if i < 0 {
		return nil, &rpcError{Code: codeInvalidParams, Message: "trust: workspace " + p.Root + " has no untrusted config file"}
	}
	if un[i].SHA256 != p.SHA256 {
		return nil, &rpcError{Code: codeState, Message: "trust: " + un[i].File + " changed since it was shown, so it is not trusted; look at it again"}
	}
	if err := cc.s.trust.Trust(un[i]); err != nil {
		return nil, &rpcError{Code: codeState, Message: "trust: " + err.Error()}
	}
	return struct{}{}, nil
}

// Untrusted lists the desk's untrusted repository configs (a reviewer's).
func (cl *Client) Untrusted(ctx context.Context) ([]TrustFile, error) {
	var a untrustedAnswer
	err := cl.Call(ctx, "untrusted", struct{}{}, &a)
	return a.Files, err
}

// Trust trusts root's config file, if its content still hashes to sha256.
func (cl *Client) Trust(ctx context.Context, root, sha256 string) error {
	return cl.Call(ctx, "trust", trustParams{Root: root, SHA256: sha256}, nil)
}
