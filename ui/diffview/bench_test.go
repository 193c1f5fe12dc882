package diffview

import (
	"fmt"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"

	"github.com/diffdesk/diffdesk/engine"
)

// cpuTime is the process's user+system CPU time: on a busy machine wall
// time mostly measures the wait for a core.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// goSource returns n lines of Go-like code; changed(k) true rewrites line k
// (a proposal against the same call with changed == nil).
func goSource(n int, changed func(k int) bool) string {
	var b strings.Builder
	b.WriteString("package big\n\n")
	for k := 2; k < n; k++ {
		edit := changed != nil && changed(k)
		switch {
		case k%25 == 2:
			fmt.Fprintf(&b, "// f%d computes a value from its inputs.\n", k)
		case k%25 == 3:
			fmt.Fprintf(&b, "func f%d(a, b int) (int, error) {\n", k)
		case k%25 == 24:
			b.WriteString("}\n")
		case edit:
			fmt.Fprintf(&b, "\tv%d := compute(a+%d, \"changed\") * b // edited\n", k, k)
		default:
			fmt.Fprintf(&b, "\tv%d := compute(a, \"name %d\") + b\n", k, k)
		}
	}
	return b.String()
}

// every20th changes a small block every 200 lines, the first on the
// first screen.
func every20th(k int) bool { return k%200 >= 10 && k%200 < 13 }

// benchView returns a view in a test window. Highlighting runs inline
// (its cost is counted) unless async, when it runs in its goroutine without
// refreshing (the test driver would run the refresh on that goroutine).
func benchView(b *testing.B, w, h float32, async bool) (*DiffView, fyne.Window) {
	b.Helper()
	a := test.NewApp()
	b.Cleanup(a.Quit)
	v := NewDiffView()
	v.open.sync = true // the benchmarks measure the work; BenchmarkOpen1MOffUI what the UI goroutine waits
	v.hl.inline = !async
	if async {
		v.hl.refresh = nil
	}
	win := a.NewWindow("bench")
	win.SetContent(v)
	win.Resize(fyne.NewSize(w, h))
	b.Cleanup(win.Close)
	return v, win
}

// BenchmarkFirstScreen10k measures a 10k-line proposal's first screen:
// the diff, the visible rows with their word spans and both sides'
// highlighted windows (budget 50 ms).
func BenchmarkFirstScreen10k(b *testing.B) {
	old, new := goSource(10000, nil), goSource(10000, every20th)
	v, _ := benchView(b, 1400, 900, false)
	bound := 0
	v.rows.onBind = func(int) { bound++ }
	lexerFor("x.go")
	b.ResetTimer()
	cpu := cpuTime()
	for range b.N {
		v.SetTexts("big.go", old, new)
	}
	b.StopTimer()
	b.ReportMetric(float64((cpuTime()-cpu).Microseconds())/1e3/float64(b.N), "cpu-ms/op")
	if bound == 0 {
		b.Fatal("no rows bound")
	}
	b.ReportMetric(float64(bound)/float64(b.N), "rows-bound/op")
	b.ReportMetric(float64(v.hl.lines)/float64(b.N), "lines-tokenised/op")
}

// BenchmarkOpen100k measures opening a 100k-line proposal (budget 300 ms).
func BenchmarkOpen100k(b *testing.B) {
	old, new := goSource(100000, nil), goSource(100000, every20th)
	v, _ := benchView(b, 1400, 900, true)
	b.ResetTimer()
	for range b.N {
		v.SetTexts("big.go", old, new)
	}
}

// BenchmarkScrollStep100k measures one page scroll of a 100k-line diff and
// reports the rows bound per step that lie off screen (must be 0).
func BenchmarkScrollStep100k(b *testing.B) { benchScrollStep(b, 100000) }

// BenchmarkScrollStep1M is the same at 1,000,000 lines: a virtualised
// view's page costs what it does at 100k.
func BenchmarkScrollStep1M(b *testing.B) { benchScrollStep(b, 1_000_000) }

// BenchmarkPagePainted100k is a page scrolled at 100k lines as the window
// pays for it on the UI goroutine: the rows bound and drawn, their colours,
// and each row on screen painted into its raster (rowpaint.go), which the
// GL driver then uploads as one texture a row.
func BenchmarkPagePainted100k(b *testing.B) {
	old, new := goSource(100000, nil), goSource(100000, every20th)
	v, _ := benchView(b, 1400, 900, false)
	v.SetTexts("big.go", old, new)
	page := v.list.Size().Height
	painted := 0
	b.ResetTimer()
	cpu := cpuTime()
	for i := range b.N {
		y := float32((i*int(page))%(v.model.Len()*int(v.metric.line)-2*int(page)) + 0)
		v.list.ScrollToOffset(y)
		for _, r := range v.rows.widgets {
			if r.id < 0 || !r.Visible() {
				continue
			}
			rr := test.WidgetRenderer(r).(*diffRowRenderer)
			for _, side := range rr.sides {
				if s := side.raster.Size(); side.raster.Visible() {
					side.raster.Generator(int(s.Width), int(s.Height))
				}
			}
			painted++
		}
	}
	b.ReportMetric(float64((cpuTime()-cpu).Microseconds())/1e3/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(painted)/float64(b.N), "rows-painted/op")
}

// BenchmarkRowsPainted measures what a page of rows costs to paint into
// their rasters once drawn (colours cached, the rows bound): the pictures
// the window makes textures of on a page down (rowpaint.go).
func BenchmarkRowsPainted(b *testing.B) {
	old, new := goSource(20000, nil), goSource(20000, every20th)
	v, _ := benchView(b, 1400, 900, false)
	v.SetTexts("big.go", old, new)
	v.Nav().PageDown()
	var rasters []*canvas.Raster
	for _, r := range v.rows.widgets {
		if r.id < 0 || !r.Visible() {
			continue
		}
		for _, o := range test.WidgetRenderer(r).Objects() {
			if ra, ok := o.(*canvas.Raster); ok && ra.Visible() {
				rasters = append(rasters, ra)
			}
		}
	}
	px := 0
	b.ResetTimer()
	cpu := cpuTime()
	for range b.N {
		for _, ra := range rasters {
			s := ra.Size()
			ra.Generator(int(s.Width), int(s.Height))
			px += int(s.Width * s.Height)
		}
	}
	b.ReportMetric(float64((cpuTime()-cpu).Microseconds())/1e3/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(px)/float64(b.N), "pixels/op")
	b.ReportMetric(float64(len(rasters)), "rasters")
}

func benchScrollStep(b *testing.B, n int) {
	old, new := goSource(n, nil), goSource(n, every20th)
	v, _ := benchView(b, 1400, 900, true)
	v.SetTexts("big.go", old, new)
	var bound []int
	v.rows.onBind = func(r int) { bound = append(bound, r) }
	page := v.list.Size().Height
	off, offscreen, total := 0, 0, 0
	b.ResetTimer()
	cpu := cpuTime()
	defer func() { b.ReportMetric(float64((cpuTime()-cpu).Microseconds())/1e3/float64(b.N), "cpu-ms/op") }()
	for i := range b.N {
		bound = bound[:0]
		y := float32((i*int(page))%(v.model.Len()*int(v.metric.line)-2*int(page)) + 0)
		v.list.ScrollToOffset(y)
		top, vis := v.topRow(), v.visibleRows()
		for _, r := range bound {
			if r < top-1 || r > top+vis+1 {
				offscreen++
			}
		}
		total += len(bound)
		off++
	}
	b.ReportMetric(float64(offscreen)/float64(off), "offscreen-rows/op")
	b.ReportMetric(float64(total)/float64(off), "rows-bound/op")
}

// BenchmarkStream2000Chunks measures the UI work of streaming a 10k-line
// write in 2,000 chunks (budget 1 ms per chunk on average); the engine's
// Feed is done before the timer starts.
func BenchmarkStream2000Chunks(b *testing.B) {
	old, new := goSource(10000, nil), goSource(10000, every20th)
	s, err := engine.NewStream(old, engine.FormatWrite)
	if err != nil {
		b.Fatal(err)
	}
	const chunks = 2000
	step := (len(new) + chunks - 1) / chunks
	var previews []engine.Preview
	for i := 0; i < len(new); i += step {
		p, err := s.Feed(new[i:min(i+step, len(new))])
		if err != nil {
			b.Fatal(err)
		}
		previews = append(previews, p)
	}
	// With .go the highlighter tokenises the growing edge in its own
	// goroutine, which competes for the CPU; .plain has no lexer, which
	// measures the UI goroutine's work alone.
	for _, ext := range []string{".plain", ".go"} {
		b.Run(ext[1:], func(b *testing.B) {
			v, _ := benchView(b, 1400, 900, true)
			for i := range b.N {
				name := fmt.Sprint("big", i, ext)
				v.SetStream(name, old, previews[0])
				for _, p := range previews {
					v.SetStream(name, old, p)
				}
				v.hl.wait()
			}
			b.StopTimer()
			per := float64(b.Elapsed().Nanoseconds()) / float64(b.N*len(previews)) / 1e6
			b.ReportMetric(per, "ms/chunk")
		})
	}
}

// BenchmarkMemory100k reports the heap a shown 100k-line proposal holds,
// texts included (budget 200 MB).
func BenchmarkMemory100k(b *testing.B) {
	v, _ := benchView(b, 1400, 900, true)
	var heap float64
	for range b.N {
		v.SetTexts("empty.go", "", "")
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		old, new := goSource(100000, nil), goSource(100000, every20th)
		v.SetTexts("big.go", old, new)
		v.Nav().NextHunk()
		runtime.GC()
		runtime.ReadMemStats(&after)
		heap = float64(after.HeapAlloc-before.HeapAlloc) / (1 << 20)
	}
	b.ReportMetric(heap, "heap-MB")
}

// BenchmarkEditorKeystroke100k measures one typed character in the editor
// of a 100k-line proposal (budget 16 ms), and a typed newline.
func BenchmarkEditorKeystroke100k(b *testing.B) {
	old, new := goSource(100000, nil), goSource(100000, every20th)
	for _, tc := range []struct {
		name string
		wrap bool
		key  func(ed *Editor)
	}{
		{"rune", false, func(ed *Editor) { ed.TypedRune('x') }},
		{"newline", false, func(ed *Editor) { ed.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn}) }},
		{"newline-wrapped", true, func(ed *Editor) { ed.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn}) }},
	} {
		b.Run(tc.name, func(b *testing.B) {
			v, _ := benchView(b, 1400, 900, true)
			v.SetTexts("big.go", old, new)
			v.SetWrap(tc.wrap)
			v.SetEditable(true)
			ed := v.Editor()
			v.edit.manual = true
			ed.SetCursor(50000, 5)
			b.ResetTimer()
			for range b.N {
				tc.key(ed)
			}
		})
	}
}

// BenchmarkEditorRediff100k measures the background re-diff after typing
// stops (off the UI goroutine in the app).
func BenchmarkEditorRediff100k(b *testing.B) {
	old, new := goSource(100000, nil), goSource(100000, every20th)
	v, _ := benchView(b, 1400, 900, true)
	v.SetTexts("big.go", old, new)
	v.SetEditable(true)
	ed := v.Editor()
	v.edit.manual = true
	ed.SetCursor(50000, 5)
	b.ResetTimer()
	for range b.N {
		ed.TypedRune('x')
		ed.flush()
	}
}

// BenchmarkOpen1M measures opening a 1,000,000-line proposal (issue 15):
// the engine's diff, move detection and the view model, folds on, with a
// small change every 200 lines. Syntax colours run off the UI goroutine.
func BenchmarkOpen1M(b *testing.B) {
	old, new := goSource(1_000_000, nil), goSource(1_000_000, every20th)
	v, _ := benchView(b, 1400, 900, true)
	b.ResetTimer()
	for range b.N {
		v.SetTexts("big.go", old, new)
	}
	b.StopTimer()
	b.ReportMetric(float64(len(new))/(1<<20), "file-MB")
}

// BenchmarkOpen1MOffUI measures what the UI goroutine spends opening a
// 1,000,000-line proposal, the diff left to its goroutine: SetTexts, and
// showing the result (ui-ms/op); ns/op counts the wait for the diff too.
func BenchmarkOpen1MOffUI(b *testing.B) {
	old, new := goSource(1_000_000, nil), goSource(1_000_000, every20th)
	v, _ := benchView(b, 1400, 900, true)
	v.open.sync = false
	v.open.post = func(func()) {} // settle shows the result on this goroutine
	var ui time.Duration
	b.ResetTimer()
	for range b.N {
		t0 := time.Now()
		v.SetTexts("big.go", old, new)
		ui += time.Since(t0)
		r := <-v.open.job.done
		t0 = time.Now()
		v.finishOpening(v.open.job, r)
		ui += time.Since(t0)
	}
	b.ReportMetric(float64(ui.Milliseconds())/float64(b.N), "ui-ms/op")
}

// BenchmarkMemory1M reports the heap a shown 1,000,000-line proposal holds
// per byte of the proposed file, both texts included (budget 10).
func BenchmarkMemory1M(b *testing.B) {
	v, _ := benchView(b, 1400, 900, true)
	var perByte float64
	for range b.N {
		v.SetTexts("empty.go", "", "")
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		old, new := goSource(1_000_000, nil), goSource(1_000_000, every20th)
		v.SetTexts("big.go", old, new)
		v.Nav().NextHunk()
		runtime.GC()
		runtime.ReadMemStats(&after)
		perByte = float64(after.HeapAlloc-before.HeapAlloc) / float64(len(new))
		runtime.KeepAlive(old)
	}
	b.ReportMetric(perByte, "bytes/file-byte")
}
