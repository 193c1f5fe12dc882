package ui

import "strings"

// Drafts: a reason typed in the reject box (r, R) or a comment typed in the
// comment box (c) is never thrown away by Esc, Cancel or a click outside
// (Esc discarded them without a word). Closing the box keeps the text as
// the proposal's draft, says so, and the box opens with it again, until
// the proposal is decided.

// draftKey names the draft of a box: the reject box of the shown proposal
// (or of its whole changeset, R), or its comment box.
func (d *detail) draftKey(box string) string {
	if box == "reject" && d.rejectWhole {
		return "reject-all\x00" + d.tree.cs.Key
	}
	return box + "\x00" + d.id
}

// keepDraft keeps text as the draft of box, saying so when there is text.
func (d *detail) keepDraft(box, text, again string) {
	key := d.draftKey(box)
	if strings.TrimSpace(text) == "" {
		delete(d.drafts, key)
		return
	}
	d.drafts[key] = text
	d.say("What you typed is kept: " + again + " opens it again with your text.")
}

// draft is box's draft ("" for none).
func (d *detail) draft(box string) string { return d.drafts[d.draftKey(box)] }

// dropDrafts forgets the drafts of proposal id, once decided.
func (d *detail) dropDrafts(id string) {
	for k := range d.drafts {
		if strings.HasSuffix(k, "\x00"+id) {
			delete(d.drafts, k)
		}
	}
}
