package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/ui/present"
)

// barActions are what the decision bar's buttons do.
type barActions struct {
	approve, reject, edit, approveEdited, cancelEdit, partial, merged, external, dismiss func()
}

// decisionBar is the row of decisions under the diff, the protected band
// over it, and the View button's pop-up of options (Fold, Ignore
// whitespace, Inline, Wrap: beside the buttons they would make the bar
// wider than the pane at 1280 px). present.DecisionBar says what shows.
type decisionBar struct {
	approve, reject, edit, approveEdited, cancelEdit *widget.Button
	partial, merged, external, dismiss               *widget.Button
	follow, wrap                                     *widget.Check
	inline, ignoreWS, collapse                       *widget.Check // layout, whitespace, unchanged regions: with Wrap in viewOptions
	askUnseen                                        *widget.Check // ask before approving what was never on screen (seen.go)
	viewButton                                       *widget.Button
	viewOptions                                      *widget.PopUp
	protected                                        *protectedBar
	keysBack                                         func()
	box                                              *fyne.Container
}

// newDecisionBar builds the bar under k's view, its buttons doing a; the
// View options set the view themselves, the ones kept across starts in
// prefs (Wrap, Inline, Ask before approving unseen hunks); extra goes
// between Follow and View (the interdiff's button).
func newDecisionBar(k paneKit, a barActions, prefs fyne.Preferences, extra fyne.CanvasObject) *decisionBar {
	b := &decisionBar{keysBack: k.keysBack}
	v := k.view
	button := func(label string, imp widget.Importance, f func()) *widget.Button {
		btn := widget.NewButton(label, f)
		btn.Importance = imp
		return btn
	}
	check := func(label string, f func(bool)) *widget.Check {
		return widget.NewCheck(label, func(on bool) {
			f(on)
			k.keysBack()
		})
	}
	b.approve = button("Approve (a)", widget.HighImportance, a.approve)
	b.reject = button("Reject… (r)", widget.DangerImportance, a.reject)
	b.edit = button("Edit (e)", widget.MediumImportance, a.edit)
	b.approveEdited = button("Approve edited (a)", widget.HighImportance, a.approveEdited)
	b.cancelEdit = button("Cancel edit", widget.MediumImportance, a.cancelEdit)
	b.partial = button("Approve selected hunks", widget.MediumImportance, a.partial)
	b.merged = button("Approve merged (a)", widget.HighImportance, a.merged)
	b.external = button("External editor… (x)", widget.MediumImportance, a.external)
	b.dismiss = button("Dismiss", widget.MediumImportance, a.dismiss)
	b.follow = check("Follow (f)", v.SetFollow)
	b.follow.SetChecked(true)
	v.OnFollowChanged = func(on bool) { b.follow.SetChecked(on) }
	b.wrap = check("Wrap long lines (w)", func(on bool) {
		v.SetWrap(on)
		prefs.SetBool(prefWrap, on)
	})
	b.inline = check("Inline layout (i)", func(on bool) {
		v.SetInline(on)
		prefs.SetBool(prefInline, on)
	})
	b.ignoreWS = check("Ignore whitespace (W)", func(on bool) {
		v.SetIgnoreWhitespace(on)
		k.counter()
	})
	b.collapse = check("Fold unchanged lines (z)", v.Folds().Collapse)
	b.collapse.SetChecked(true)
	b.askUnseen = check("Ask before approving unseen hunks", func(on bool) { prefs.SetBool(prefAskUnseen, on) })
	b.askUnseen.SetChecked(prefs.BoolWithFallback(prefAskUnseen, true))
	b.viewOptions = widget.NewPopUp(container.NewVBox(b.askUnseen, b.collapse, b.ignoreWS, b.inline, b.wrap), k.win.Canvas())
	b.viewOptions.Hide() // a new pop-up says it is visible: Esc would close it, not cancel the edit
	b.viewButton = widget.NewButtonWithIcon("View", theme.MenuDropDownIcon(), b.showViewOptions)
	b.viewButton.IconPlacement = widget.ButtonIconTrailingText
	b.protected = newProtectedBar()
	// The buttons wrap onto a second row in a narrow window, Follow and
	// View at the right end of the last (flow.go).
	b.box = container.NewBorder(b.protected.box, nil, nil, nil,
		newFlow(true, b.approve, b.merged, b.approveEdited, b.partial, b.edit, b.cancelEdit, b.external, b.reject, b.dismiss,
			container.NewHBox(b.follow, extra, b.viewButton)))
	return b
}

// showViewOptions opens the view options above the View button, its right
// edge on the button's; a click outside or Esc closes them.
func (b *decisionBar) showViewOptions() {
	at := fyne.CurrentApp().Driver().AbsolutePositionForObject(b.viewButton)
	size := b.viewOptions.MinSize()
	b.viewOptions.ShowAtPosition(at.Add(fyne.NewPos(b.viewButton.Size().Width-size.Width, -size.Height)))
	b.keysBack()
}

// closeViewOptions closes the View pop-up; it reports whether it was open.
func (b *decisionBar) closeViewOptions() bool {
	if !b.viewOptions.Visible() {
		return false
	}
	b.viewOptions.Hide()
	return true
}

// show sets the buttons as s says, and the protected band for p.
func (b *decisionBar) show(s present.Bar, p review.Proposal, open bool) {
	set := func(btn *widget.Button, st present.Button) {
		vis(btn, st.Shown)
		if st.Enabled {
			btn.Enable()
		} else {
			btn.Disable()
		}
	}
	b.protected.show(p, open)
	b.approve.SetText(s.ApproveLabel)
	set(b.approve, s.Approve)
	set(b.merged, s.Merged)
	set(b.approveEdited, s.ApproveEdited)
	set(b.cancelEdit, s.CancelEdit)
	set(b.partial, s.Partial)
	set(b.edit, s.Edit)
	set(b.external, s.External)
	set(b.reject, s.Reject)
	set(b.dismiss, s.Dismiss)
	vis(b.follow, s.Follow)
	vis(b.wrap, s.Wrap)
	vis(b.viewButton, s.Wrap)
	for _, c := range []*widget.Check{b.inline, b.ignoreWS, b.collapse} {
		vis(c, s.Layout)
	}
}

// asksUnseen reports whether the person wants the question before
// approving what was never on screen (View → Ask before approving unseen
// hunks).
func (b *decisionBar) asksUnseen() bool { return b.askUnseen.Checked }

// toggle flips a box, as its key does (f, w, i, W, z).
func toggle(c *widget.Check) { c.SetChecked(!c.Checked) }
