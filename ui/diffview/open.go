package diffview

import (
	"context"
	"strconv"
	"strings"

	"github.com/diffdesk/diffdesk/engine"
)

// asyncBytes is the combined size of the two texts, in bytes, above which
// SetTexts diffs them off the UI goroutine (about 50,000 lines of code a
// side; a 1,000,000-line file takes seconds).
const asyncBytes = 4 << 20

// opened is a diff of two complete texts, ready to show.
type opened struct {
	m     *rowModel
	moves []engine.Move
	maxW  int  // widest line in cells, both sides
	ascii bool // both texts are plain ASCII: no font can miss their script
}

// openTexts diffs old and new and builds their rows in the shape sh. It
// gives up, returning false, once ctx is done (checked between steps).
func openTexts(ctx context.Context, old, new string, sh shape) (opened, bool) {
	a, b := engine.SplitLines(old), engine.SplitLines(new)
	if ctx.Err() != nil {
		return opened{}, false
	}
	ops := engine.DiffLines(a, b)
	if ctx.Err() != nil {
		return opened{}, false
	}
	m := newRowModel(lineSet{head: a}, lineSet{head: b}, ops, [2]int{}, nil)
	m.reshape(sh)
	r := opened{m: m, moves: engine.Moves(a, b, ops), ascii: plainASCII(old) && plainASCII(new)}
	r.maxW = max(widest(&m.a, 0), widest(&m.b, 0))
	return r, ctx.Err() == nil
}

// opening is a diff SetTexts left computing in a goroutine.
type opening struct {
	cancel    context.CancelFunc
	done      chan opened // receives the result, once, unless cancelled
	firstHunk bool        // NextHunk was called meanwhile: open at the first change
}

// openAsync shows a placeholder and diffs old and new in a goroutine, which
// ends after posting its result (or on learning, between steps, that a
// newer SetTexts superseded it).
func (v *DiffView) openAsync(old, new string) {
	v.install(opened{m: newRowModel(lineSet{}, lineSet{}, nil, [2]int{}, nil), ascii: true}, false, 0)
	lines := max(strings.Count(old, "\n"), strings.Count(new, "\n"))
	v.banner.SetText("Diffing " + strconv.Itoa(lines) + " lines…")
	v.banner.Show()
	v.relayout()
	ctx, cancel := context.WithCancel(context.Background())
	op := &opening{cancel: cancel, done: make(chan opened, 1)}
	v.open.job = op
	sh := shape{inline: v.folds.inline, fold: v.folds.on} // show reshapes with the lines opened meanwhile
	post := v.open.post
	go func() {
		r, ok := openTexts(ctx, old, new, sh)
		if ok {
			op.done <- r
		}
		post(func() { v.arrived(op) })
	}()
}

// arrived shows the result of op if it is still the diff the view waits for.
func (v *DiffView) arrived(op *opening) {
	if v.open.job != op {
		return
	}
	select {
	case r := <-op.done:
		v.finishOpening(op, r)
	default: // cancelled
	}
}

// settle waits for the diff SetTexts left computing, if any, and shows it:
// what needs the hunks (Hunks, AcceptedHunks, SetEditable) must not see the
// placeholder's none.
func (v *DiffView) settle() {
	if op := v.open.job; op != nil {
		v.finishOpening(op, <-op.done)
	}
}

// finishOpening shows r, the result of op.
func (v *DiffView) finishOpening(op *opening, r opened) {
	v.open.job = nil
	op.cancel()
	v.banner.Hide()
	v.install(r, false, 0)
	if op.firstHunk {
		v.nav.NextHunk()
	}
	if v.OnOpened != nil {
		v.OnOpened()
	}
}

// cancelOpening stops the diff SetTexts left computing, if any.
func (v *DiffView) cancelOpening() {
	if v.open.job != nil {
		v.open.job.cancel()
		v.open.job = nil
		v.banner.Hide()
	}
}

// awaitFirstHunk makes the view open at the first change once the texts
// it is diffing arrive, and reports whether it is diffing any.
func (v *DiffView) awaitFirstHunk() bool {
	if v.open.job != nil {
		v.open.job.firstHunk = true
	}
	return v.open.job != nil
}

// Opening reports whether the view is still diffing the texts SetTexts
// gave it (it shows "Diffing N lines…" meanwhile).
func (v *DiffView) Opening() bool { return v.open.job != nil }

// SetOpenPoster makes SetTexts diff big texts off the caller's goroutine
// and hand the result back through post (fyne.Do by default, for a view
// made SetSynchronous): a host running its own loop, or a test, passes
// its own.
func (v *DiffView) SetOpenPoster(post func(func())) {
	v.open.sync = false
	v.open.post = post
}

// SetSynchronous keeps the view's work on the calling goroutine: SetTexts
// diffs texts of any size before it returns, syntax
// colours are computed as soon as rows ask for them, and the editor's full
// re-diff after a typing pause is left out (the diff is still patched
// around each edit at once). For tests on Fyne's test driver, whose
// fyne.Do runs on the caller's goroutine, so the view's own goroutines
// would race the test.
func (v *DiffView) SetSynchronous(on bool) {
	v.hl.inline = on
	v.edit.manual = on
	v.open.sync = on
}

// opener is how SetTexts diffs: on the caller's goroutine or off it.
type opener struct {
	job  *opening     // the diff SetTexts left computing; nil when none
	sync bool         // SetTexts diffs on the caller's goroutine whatever the size: SetSynchronous
	post func(func()) // runs a function on the UI goroutine: fyne.Do, or a test's queue
}
