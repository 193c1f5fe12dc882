package ui

import "strings"

// Drafts: a reason typed in the reject box (r, R) or a comment typed in the
// comment box (c) is never thrown away by Esc, Cancel or a click outside
// (Esc discarded them without a word). Closing the box keeps the text as
// the proposal's draft, says so, and the box opens with it again, until
// the proposal is decided.

// drafts are the texts typed and not yet sent, by box and owner: the
// reject box ("reject") or the comment box ("comment") of a proposal (its
// id), or the reject box of a whole changeset ("reject-all", its key).
type drafts struct {
	texts map[string]string
	say   func(string) // the message line
}

func newDrafts(say func(string)) *drafts { return &drafts{texts: map[string]string{}, say: say} }

// keep keeps text as the draft of box of owner, saying so (again: the key
// that opens it again) when there is text.
func (ds *drafts) keep(box, owner, text, again string) {
	if strings.TrimSpace(text) == "" {
		ds.drop(box, owner)
		return
	}
	ds.texts[box+"\x00"+owner] = text
	ds.say("What you typed is kept: " + again + " opens it again with your text.")
}

// get is the draft of box of owner ("" for none).
func (ds *drafts) get(box, owner string) string { return ds.texts[box+"\x00"+owner] }

// drop forgets the draft of box of owner (it was sent).
func (ds *drafts) drop(box, owner string) { delete(ds.texts, box+"\x00"+owner) }

// dropProposal forgets the drafts of proposal id, once decided.
func (ds *drafts) dropProposal(id string) {
	for k := range ds.texts {
		if strings.HasSuffix(k, "\x00"+id) {
			delete(ds.texts, k)
		}
	}
}
