package ui

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/diffdesk/diffdesk/review/journal"
	"github.com/diffdesk/diffdesk/ui/diffview"
	"github.com/diffdesk/diffdesk/ui/present"
)

// restoreDialog is the restore's dry run, while shown: its buttons are
// fields so tests tap them.
type restoreDialog struct {
	restoreDlg     dialog.Dialog
	restorePlan    journal.RestorePlan
	restoreText    *widget.Label
	restoreConfirm *widget.Button
	restoreForce   *widget.Button
	restoreOthers  *widget.Button // restores the files not refused, leaving the refused ones out
	restoreCancel  *widget.Button
	restoreView    *diffview.DiffView // what the restore does to the file chosen: disk now → restored
	restoreFile    *widget.Select
	restoreWhat    *widget.Label // the direction the view shows
	synchronous    bool          // tests: diff views made later work synchronously (DiffView.SetSynchronous)
	lastRestore    journal.RestoreResult
	lastErr        error
}

// ShowRestore works out (off the UI goroutine) what restoring the selected
// entry's files to before it would do, and shows that dry run in a dialog
// before anything is written.
func (h *historyView) ShowRestore() {
	e, ok := h.selected()
	if !ok || e.Ref.Checkpoint() == 0 {
		return
	}
	h.planRestore(journal.RestoreRequest{Checkpoint: e.Ref.Checkpoint(), Target: journal.RestoreBefore})
}

// ShowRestoreFile is ShowRestore for the file shown only (the entry's
// other files are left as they are).
func (h *historyView) ShowRestoreFile() {
	e, ok := h.selected()
	i := h.fileSel.SelectedIndex()
	if !ok || e.Ref.Checkpoint() == 0 || i < 0 || i >= len(h.diffs) || h.shown != string(e.Ref) {
		return // a comparison is shown: its files need not be the entry's
	}
	h.planRestore(journal.RestoreRequest{Checkpoint: e.Ref.Checkpoint(), Target: journal.RestoreBefore, Paths: []string{h.diffs[i].Path}})
}

func (h *historyView) planRestore(req journal.RestoreRequest) {
	h.restore.Disable()
	h.restore1.Disable()
	h.run(func(ctx context.Context) func() {
		plan, _, err := h.deps.desk.Restore(ctx, req, false)
		return func() {
			h.setActions()
			if err != nil {
				h.lastErr = err
				dialog.ShowError(err, h.deps.win)
				return
			}
			h.showPlan(plan)
		}
	})
}

func (h *historyView) showPlan(plan journal.RestorePlan) {
	h.hidePlan()
	h.restorePlan = plan
	h.restoreText = widget.NewLabel(present.RestorePlan(plan, h.rel))
	h.restoreText.TextStyle.Monospace = true
	h.restoreText.Wrapping = fyne.TextWrapWord
	h.restoreCancel = widget.NewButton("Cancel (Esc)", h.hidePlan)
	h.restoreConfirm = widget.NewButton("Restore", func() { h.applyRestore(h.restorePlan) })
	h.restoreConfirm.Importance = widget.DangerImportance
	h.restoreForce = widget.NewButton("Force…", func() {
		req := h.restorePlan.Request
		req.Force = true
		h.hidePlan()
		h.planRestore(req)
	})
	var others []string // the files not refused
	for _, f := range plan.Files {
		if f.Action != journal.RestoreRefused {
			others = append(others, f.Path)
		}
	}
	h.restoreOthers = widget.NewButton(fmt.Sprintf("Leave refused out (restore %d %s)", len(others), present.Plural(len(others), "file", "files")), func() {
		req := h.restorePlan.Request
		req.Paths = others
		h.hidePlan()
		h.planRestore(req)
	})
	if len(others) < len(plan.Files) {
		h.restoreConfirm.Disable()
	} else {
		h.restoreForce.Hide()
	}
	if len(others) == 0 || len(others) == len(plan.Files) {
		h.restoreOthers.Hide()
	}
	buttons := container.NewHBox(h.restoreCancel, h.restoreOthers, h.restoreForce, h.restoreConfirm)
	h.restoreView = diffview.NewDiffView()
	h.restoreView.ReadOnly = true
	h.restoreView.SetDark(isDark(h.deps.app))
	h.restoreView.SetSynchronous(h.synchronous)
	h.restoreWhat = widget.NewLabel("")
	h.restoreWhat.Wrapping = fyne.TextWrapWord
	var names []string
	for _, f := range plan.Files {
		names = append(names, h.rel(f.Path))
	}
	h.restoreFile = widget.NewSelect(names, func(string) { h.showRestoreFile() })
	text := container.NewVScroll(h.restoreText)
	text.SetMinSize(fyne.NewSize(0, 120))
	diff := container.NewBorder(container.NewVBox(container.NewBorder(nil, nil, widget.NewLabel("File"), nil, h.restoreFile), h.restoreWhat), nil, nil, nil, h.restoreView)
	body := container.NewBorder(text, container.NewCenter(buttons), nil, nil, diff)
	title := "Restore checkpoint " + strconv.FormatInt(plan.Request.Checkpoint, 10) + "?"
	if plan.Request.Force {
		title = "Force the restore of checkpoint " + strconv.FormatInt(plan.Request.Checkpoint, 10) + "?"
	}
	h.restoreDlg = dialog.NewCustomWithoutButtons(title, body, h.deps.win)
	h.restoreDlg.Resize(fyne.NewSize(1000, 640))
	h.deps.open(h.restoreDlg)
	h.restoreDlg.Show()
	if len(names) > 0 {
		h.restoreFile.SetSelectedIndex(0) // showRestoreFile
	}
}

// showRestoreFile shows, for the file chosen in the restore dialog, what
// the restore does to it: the disk now on the left, the file restored on
// the right.
func (h *historyView) showRestoreFile() {
	i := h.restoreFile.SelectedIndex()
	if i < 0 || i >= len(h.restorePlan.Files) {
		return
	}
	f := h.restorePlan.Files[i]
	now, then := string(f.Disk.Content), string(f.Target)
	h.restoreWhat.SetText(present.RestoreDirection(f, h.restorePlan.Request, h.rel))
	if !utf8.Valid(f.Disk.Content) || !utf8.Valid(f.Target) {
		now, then = "(binary: not shown)\n", "(binary: not shown)\n"
	}
	h.restoreView.SetTexts(f.Path, now, then)
	h.restoreView.Nav().NextHunk() // open at the first change
}

func (h *historyView) hidePlan() {
	if h.restoreDlg != nil {
		h.restoreDlg.Hide()
		h.restoreDlg = nil
	}
}

// applyRestore carries out a confirmed plan, then refreshes the timeline
// and selects the restore's own entry (restoring it undoes the restore).
func (h *historyView) applyRestore(plan journal.RestorePlan) {
	h.restoreConfirm.Disable()
	h.run(func(ctx context.Context) func() {
		_, res, err := h.deps.desk.Restore(ctx, plan.Request, true)
		return func() {
			h.hidePlan()
			h.lastErr = err
			var refused *journal.RestoreRefusedError
			switch {
			case errors.As(err, &refused):
				// The disk changed since the dry run: show the new plan.
				h.planRestore(plan.Request)
				return
			case err != nil:
				dialog.ShowError(err, h.deps.win)
				return
			}
			h.lastRestore = res
			if res.Checkpoint > 0 {
				h.want = journal.Ref(strconv.FormatInt(res.Checkpoint, 10))
				h.notice = fmt.Sprintf("Restored %d %s: checkpoint %d (restore it to undo).", len(res.Files), present.Plural(len(res.Files), "file", "files"), res.Checkpoint)
			} else {
				h.notice = "Every file already had that content: nothing was written."
			}
			h.mark = nil
			h.sel = -1
			h.reload()
		}
	})
}
