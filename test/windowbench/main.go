// Command windowbench drives real diff windows under X (Xvfb) and times
// what a reviewer feels: the first paint of a big diff, then Page Down, a
// wheel step and "next change", each from the key or button event (XTest)
// to the last repaint it caused (X Damage on the root window: the repaint
// is on screen, not merely asked for). It runs DiffDesk, kdiff3 and Meld on
// the same generated file pairs in one run and prints medians and the
// ratios to kdiff3, and each process's peak memory. scripts/bench-window
// starts Xvfb and calls it (make bench).
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/damage"
	"github.com/jezek/xgb/xproto"
	"github.com/jezek/xgb/xtest"
)

var (
	sizes     = flag.String("sizes", "10000,100000,1000000", "line counts of the file pairs")
	runs      = flag.Int("runs", 6, "events of each kind per tool and size (the median is printed)")
	tools     = flag.String("tools", "diffdesk,kdiff3,meld", "the tools to run, in order")
	diffdesk  = flag.String("diffdesk", "bin/diffdesk", "the DiffDesk window binary")
	deskctl   = flag.String("deskctl", "bin/deskctl", "deskctl, which proposes the new file to the window's desk")
	openLimit = flag.Duration("open-limit", 150*time.Second, "give up on a tool's first paint after this long (Meld at 1M lines)")
	dir       = flag.String("dir", "", "work directory (default: a temporary one)")
	skip      = flag.String("skip", "meld@1000000", "tool@lines pairs not run (comma-separated): Meld does not open 1M lines in minutes")
	frames    = flag.Bool("framelog", true, "DiffDesk's first paint by its $DIFFDESK_FRAMELOG line (false: by repaints settling, as the others)")
)

var debug = os.Getenv("WINDOWBENCH_DEBUG") != ""

// quiet is how long no repaint must follow an event for its frame to count
// as done; settle the same for the first paint (progress bars repaint).
const (
	quiet  = 400 * time.Millisecond
	settle = 2500 * time.Millisecond
)

type result struct {
	open              time.Duration
	page, wheel, next []time.Duration
	cpu               [3]time.Duration // the process's CPU (all its threads) per event: Page Down, wheel, next change
	idle              time.Duration    // its CPU a second with no input (the per-event figures count it for ≥ quiet)
	peakKB            int
	err               string
}

func main() {
	flag.Parse()
	x, err := newDisplay()
	if err != nil {
		fmt.Fprintln(os.Stderr, "windowbench:", err)
		os.Exit(1)
	}
	work := *dir
	if work == "" {
		work, _ = os.MkdirTemp("", "windowbench")
		defer os.RemoveAll(work)
	}
	var ns []int
	for _, s := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil {
			fmt.Fprintf(os.Stderr, "windowbench: -sizes: %q is not a line count\n", s)
			os.Exit(2)
		}
		ns = append(ns, n)
	}
	toolList := strings.Split(*tools, ",")
	all := map[string]map[int]result{}
	for _, n := range ns {
		oldPath, newPath, bytes := writePair(work, n)
		fmt.Printf("== %d lines (%.1f MB a side, 22-byte lines, a 3-line change every 200 lines)\n", n, float64(bytes)/1e6)
		for _, t := range toolList {
			var r result
			if slices.Contains(strings.Split(*skip, ","), fmt.Sprintf("%s@%d", t, n)) {
				r.err = "not run (-skip)"
			} else {
				r = x.run(t, work, oldPath, newPath)
			}
			if all[t] == nil {
				all[t] = map[int]result{}
			}
			all[t][n] = r
			fmt.Printf("   %-9s %s\n", t, r.line())
		}
	}
	fmt.Println()
	fmt.Println("Medians; ratio = DiffDesk / kdiff3 (below 1: DiffDesk is faster or smaller), Meld / kdiff3 beside it.")
	fmt.Println("CPU: the process's own CPU time per event (all threads; the X server's is not counted), Page Down / wheel / next change;")
	fmt.Printf("each event's counts its idle CPU (the last column) for the %s it waits for repaints to stop, or longer.\n", quiet)
	fmt.Println("| lines | tool | first paint | Page Down | wheel step | next change | CPU per event | peak RSS | idle CPU a second |")
	fmt.Println("|---|---|---:|---:|---:|---:|---:|---:|---:|")
	for _, n := range ns {
		k := all["kdiff3"][n]
		for _, t := range toolList {
			r := all[t][n]
			if r.err != "" {
				fmt.Printf("| %d | %s | %s | | | | | | |\n", n, t, r.err)
				continue
			}
			cell := func(d time.Duration, base time.Duration) string {
				s := ms(d)
				if t != "kdiff3" && base > 0 && d > 0 {
					s += fmt.Sprintf(" (%.2f×)", float64(d)/float64(base))
				}
				return s
			}
			mem := fmt.Sprintf("%d MB", r.peakKB/1024)
			if t != "kdiff3" && k.peakKB > 0 {
				mem += fmt.Sprintf(" (%.2f×)", float64(r.peakKB)/float64(k.peakKB))
			}
			fmt.Printf("| %d | %s | %s | %s | %s | %s | %s / %s / %s | %s | %s |\n", n, t, cell(r.open, k.open), cell(median(r.page), median(k.page)),
				cell(median(r.wheel), median(k.wheel)), cell(median(r.next), median(k.next)), ms(r.cpu[0]), ms(r.cpu[1]), ms(r.cpu[2]), mem, idleMS(r.idle))
		}
	}
}

func (r result) line() string {
	if r.err != "" {
		return r.err
	}
	return fmt.Sprintf("first paint %s · Page Down %s · wheel %s · next change %s · CPU per event %s / %s / %s · peak %d MB · idle CPU %s a second", ms(r.open), ms(median(r.page)),
		ms(median(r.wheel)), ms(median(r.next)), ms(r.cpu[0]), ms(r.cpu[1]), ms(r.cpu[2]), r.peakKB/1024, idleMS(r.idle))
}

// idleMS is ms for an idle figure, where none is a measurement too.
func idleMS(d time.Duration) string {
	return fmt.Sprintf("%.0f ms", float64(d.Microseconds())/1000)
}

// idleFor is how long a tool is left without input to measure its idle CPU.
const idleFor = 5 * time.Second

func ms(d time.Duration) string {
	if d <= 0 {
		return "–"
	}
	if d >= time.Second {
		return fmt.Sprintf("%.2f s", d.Seconds())
	}
	return fmt.Sprintf("%.0f ms", float64(d.Microseconds())/1000)
}

func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// writePair writes n-line old and new Go files: ordinary 22-byte lines, a
// small function every 25 lines, three lines changed every 200.
func writePair(dir string, n int) (string, string, int) {
	var a, b strings.Builder
	for k := range n {
		var l, m string
		switch {
		case k%25 == 0:
			l = fmt.Sprintf("func f%07d() int {", k)
		case k%25 == 24:
			l = "\treturn 0 // end   }"
		default:
			l = fmt.Sprintf("\tx%07d := f(a, %d)", k, k%10)
		}
		m = l
		if k%200 >= 10 && k%200 < 13 {
			m = fmt.Sprintf("\tx%07d := g(b, %d)", k, k%10)
		}
		a.WriteString(l[:min(len(l), 21)] + "\n")
		b.WriteString(m[:min(len(m), 21)] + "\n")
	}
	sub := filepath.Join(dir, strconv.Itoa(n))
	os.MkdirAll(filepath.Join(sub, "ws"), 0o755)
	oldPath := filepath.Join(sub, "ws", "big.go")
	newPath := filepath.Join(sub, "proposed.go")
	os.WriteFile(oldPath, []byte(a.String()), 0o644)
	os.WriteFile(newPath, []byte(b.String()), 0o644)
	return oldPath, newPath, b.Len()
}

// display is the X connection: damage on the root window, XTest input.
type display struct {
	c      *xgb.Conn
	root   xproto.Window
	codes  map[xproto.Keysym]xproto.Keycode
	events chan time.Time // each damage event's arrival
	before map[xproto.Window]bool
}

// remember notes the top-level windows there are before a tool starts.
func (d *display) remember() {
	d.before = map[xproto.Window]bool{}
	if tree, err := xproto.QueryTree(d.c, d.root).Reply(); err == nil {
		for _, w := range tree.Children {
			d.before[w] = true
		}
	}
}

func newDisplay() (*display, error) {
	c, err := xgb.NewConn()
	if err != nil {
		return nil, fmt.Errorf("no X display (DISPLAY=%q): %v", os.Getenv("DISPLAY"), err)
	}
	if err := damage.Init(c); err != nil {
		return nil, fmt.Errorf("the X server has no DAMAGE extension: %v", err)
	}
	if err := xtest.Init(c); err != nil {
		return nil, fmt.Errorf("the X server has no XTEST extension: %v", err)
	}
	if _, err := damage.QueryVersion(c, 1, 1).Reply(); err != nil {
		return nil, err
	}
	setup := xproto.Setup(c)
	d := &display{c: c, root: setup.DefaultScreen(c).Root, codes: map[xproto.Keysym]xproto.Keycode{}, events: make(chan time.Time, 1<<16)}
	km, err := xproto.GetKeyboardMapping(c, setup.MinKeycode, byte(setup.MaxKeycode-setup.MinKeycode+1)).Reply()
	if err != nil {
		return nil, err
	}
	per := int(km.KeysymsPerKeycode)
	for i := 0; i*per < len(km.Keysyms); i++ {
		for j := range per {
			if s := km.Keysyms[i*per+j]; s != 0 {
				if _, ok := d.codes[s]; !ok {
					d.codes[s] = xproto.Keycode(int(setup.MinKeycode) + i)
				}
			}
		}
	}
	id, err := damage.NewDamageId(c)
	if err != nil {
		return nil, err
	}
	// Damage on the root window reports what is drawn in every window.
	if err := damage.CreateChecked(c, id, xproto.Drawable(d.root), damage.ReportLevelRawRectangles).Check(); err != nil {
		return nil, err
	}
	go func() {
		for {
			ev, err := c.WaitForEvent()
			if ev == nil && err == nil {
				return
			}
			if n, ok := ev.(damage.NotifyEvent); ok {
				if n.Area.Width <= 4 || n.Area.Height <= 4 {
					continue // a blinking text cursor
				}
				if debug {
					fmt.Fprintf(os.Stderr, "%s damage %v\n", time.Now().Format("15:04:05.000"), n.Area)
				}
				select {
				case d.events <- time.Now():
				default:
				}
			}
		}
	}()
	return d, nil
}

// drain forgets the repaints so far.
func (d *display) drain() {
	for {
		select {
		case <-d.events:
		default:
			return
		}
	}
}

// lastRepaint waits until no repaint came for q (or limit passed) and
// returns the time of the last one; zero if none came.
func (d *display) lastRepaint(q, limit time.Duration) time.Time {
	var last time.Time
	end := time.After(limit)
	for {
		select {
		case t := <-d.events:
			last = t
		case <-time.After(q):
			return last
		case <-end:
			return last
		}
	}
}

// firstAfter returns the time of the first repaint at or after t (zero if
// none came within limit).
func (d *display) firstAfter(t time.Time, limit time.Duration) time.Time {
	end := time.After(limit)
	for {
		select {
		case e := <-d.events:
			if !e.Before(t) {
				return e
			}
		case <-end:
			return time.Time{}
		}
	}
}

func (d *display) key(mods []xproto.Keysym, sym xproto.Keysym) {
	for _, m := range mods {
		xtest.FakeInput(d.c, xproto.KeyPress, byte(d.codes[m]), 0, d.root, 0, 0, 0)
	}
	xtest.FakeInput(d.c, xproto.KeyPress, byte(d.codes[sym]), 0, d.root, 0, 0, 0)
	xtest.FakeInput(d.c, xproto.KeyRelease, byte(d.codes[sym]), 0, d.root, 0, 0, 0)
	for _, m := range slices.Backward(mods) {
		xtest.FakeInput(d.c, xproto.KeyRelease, byte(d.codes[m]), 0, d.root, 0, 0, 0)
	}
	d.c.Sync()
}

func (d *display) button(b byte) {
	xtest.FakeInput(d.c, xproto.ButtonPress, b, 0, d.root, 0, 0, 0)
	xtest.FakeInput(d.c, xproto.ButtonRelease, b, 0, d.root, 0, 0, 0)
	d.c.Sync()
}

func (d *display) pointer(x, y int16) {
	xproto.WarpPointer(d.c, 0, d.root, 0, 0, 0, 0, x, y)
	d.c.Sync()
}

const (
	symPageDown = 0xff56
	symDown     = 0xff54
	symControl  = 0xffe3
	symAlt      = 0xffe9
	symJ        = 0x006a
)

// run opens the pair in tool, measures it and ends it.
func (d *display) run(tool, work, oldPath, newPath string) result {
	var r result
	var cmd *exec.Cmd
	var next func()
	var t0 time.Time
	var drawn chan time.Time // DiffDesk: its rows of the diff are drawn
	tmp, _ := os.MkdirTemp(work, tool)
	env := append(os.Environ(), "XDG_RUNTIME_DIR="+tmp, "XDG_CONFIG_HOME="+tmp+"/config", "XDG_DATA_HOME="+tmp+"/data",
		"XDG_CACHE_HOME="+tmp+"/cache", "HOME="+tmp)
	for _, sub := range []string{"config", "cache", "data"} {
		os.MkdirAll(filepath.Join(tmp, sub), 0o700)
	}
	d.remember()
	d.drain()
	switch tool {
	case "diffdesk":
		sock := filepath.Join(tmp, "desk.sock")
		// A 1M-line side is past the desk's default 10 MiB limit.
		os.WriteFile(filepath.Join(tmp, "config.toml"), []byte("[limits]\nmax_file_bytes = 268435456\n"), 0o600)
		cmd = command(*diffdesk, "--workspace", filepath.Dir(oldPath), "--socket", sock, "--journal", filepath.Join(tmp, "journal.db"),
			"--config", filepath.Join(tmp, "config.toml"))
		cmd.Env = append(env, "DIFFDESK_FRAMELOG=1")
		logR, logW, _ := os.Pipe()
		cmd.Stderr = logW
		if err := cmd.Start(); err != nil {
			r.err = err.Error()
			return r
		}
		logW.Close()
		if *frames {
			drawn = make(chan time.Time, 16)
		}
		go func() {
			sc := bufio.NewScanner(logR)
			for sc.Scan() {
				if debug {
					fmt.Fprintln(os.Stderr, "diffdesk:", sc.Text())
				}
				if drawn != nil && strings.Contains(sc.Text(), "diffview: rows drawn: ") {
					drawn <- time.Now()
				}
			}
		}()
		defer stop(cmd)
		for i := 0; exec.Command(*deskctl, "status", "--socket", sock).Run() != nil; i++ {
			if i > 300 {
				r.err = "the window's desk never listened"
				return r
			}
			time.Sleep(100 * time.Millisecond)
		}
		d.lastRepaint(settle, 20*time.Second) // the empty window
		d.drain()
		t0 = time.Now()
		p := command(*deskctl, "propose", "--socket", sock, "--agent", "bench", "--format", "write", "--file", oldPath, "--edit", newPath)
		p.Env = env
		p.Start()
		defer stop(p)
		next = func() { d.key(nil, symJ) }
	case "kdiff3":
		cmd = command("kdiff3", oldPath, newPath)
		next = func() { d.key([]xproto.Keysym{symControl}, symDown) }
	case "meld":
		cmd = command("meld", oldPath, newPath)
		next = func() { d.key([]xproto.Keysym{symAlt}, symDown) }
	default:
		r.err = "unknown tool " + tool
		return r
	}
	if tool != "diffdesk" {
		cmd.Env = env
		t0 = time.Now()
		if err := cmd.Start(); err != nil {
			r.err = "not run: " + err.Error()
			return r
		}
		defer stop(cmd)
	}
	win := d.windowOf(cmd.Process.Pid, *openLimit)
	if win == 0 {
		r.err = "no window"
		return r
	}
	var last time.Time
	if drawn != nil {
		// DiffDesk's own line says when the diff's rows are drawn; the
		// first repaint after it shows them (its window repaints for other
		// reasons too: the proposal's age, checkers).
		select {
		case tl := <-drawn:
			last = d.firstAfter(tl, 10*time.Second)
		case <-time.After(*openLimit):
		}
	} else {
		last = d.lastRepaint(settle, *openLimit)
	}
	if last.IsZero() || time.Since(t0) >= *openLimit {
		r.err = fmt.Sprintf("not open after %s", *openLimit)
		r.peakKB = peakKB(cmd.Process.Pid)
		return r
	}
	r.open = last.Sub(t0)
	// The pointer over the middle of the diff, the keyboard to the window;
	// a click there gives kdiff3's and Meld's text pane the keyboard.
	g, err := xproto.GetGeometry(d.c, xproto.Drawable(win)).Reply()
	if err == nil {
		x := int16(g.Width / 4)
		if tool == "diffdesk" {
			x = int16(g.Width * 6 / 10) // the queue is on the left
		}
		tr, _ := xproto.TranslateCoordinates(d.c, win, d.root, x, int16(g.Height*6/10)).Reply()
		if tr != nil {
			d.pointer(tr.DstX, tr.DstY)
		}
	}
	xproto.SetInputFocus(d.c, xproto.InputFocusPointerRoot, win, 0)
	if tool != "diffdesk" {
		d.button(1)
	}
	d.lastRepaint(quiet, 5*time.Second)
	pid := cmd.Process.Pid
	c0 := cpuTime(pid)
	time.Sleep(idleFor)
	r.idle = (cpuTime(pid) - c0) * time.Second / idleFor
	measure := func(act func(), cpu *time.Duration) []time.Duration {
		var out []time.Duration
		var used time.Duration
		for range *runs {
			d.lastRepaint(quiet, 5*time.Second)
			d.drain()
			t := time.Now()
			if debug {
				fmt.Fprintf(os.Stderr, "%s event\n", t.Format("15:04:05.000"))
			}
			c0 := cpuTime(pid)
			act()
			if l := d.lastRepaint(quiet, 10*time.Second); !l.IsZero() {
				out = append(out, l.Sub(t))
			}
			used += cpuTime(pid) - c0
		}
		*cpu = used / time.Duration(max(*runs, 1))
		return out
	}
	r.page = measure(func() { d.key(nil, symPageDown) }, &r.cpu[0])
	r.wheel = measure(func() { d.button(5) }, &r.cpu[1])
	r.next = measure(next, &r.cpu[2])
	r.peakKB = peakKB(cmd.Process.Pid)
	return r
}

// windowOf waits for a mapped top-level window of process pid
// (_NET_WM_PID) and returns it.
func (d *display) windowOf(pid int, limit time.Duration) xproto.Window {
	atom, err := xproto.InternAtom(d.c, true, uint16(len("_NET_WM_PID")), "_NET_WM_PID").Reply()
	if err != nil {
		return 0
	}
	for end := time.Now().Add(limit); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		tree, err := xproto.QueryTree(d.c, d.root).Reply()
		if err != nil {
			return 0
		}
		for _, w := range tree.Children {
			attr, err := xproto.GetWindowAttributes(d.c, w).Reply()
			if err != nil || attr.MapState != xproto.MapStateViewable {
				continue
			}
			p, err := xproto.GetProperty(d.c, false, w, atom.Atom, xproto.AtomCardinal, 0, 1).Reply()
			if err == nil && p.ValueLen == 1 && int(xgb.Get32(p.Value)) == pid {
				return w
			}
			// Meld's window names no pid: a big window that was not there
			// before the tool started is its.
			if g, err := xproto.GetGeometry(d.c, xproto.Drawable(w)).Reply(); err == nil && !d.before[w] && g.Width > 300 && g.Height > 300 {
				return w
			}
		}
	}
	return 0
}

// cpuTime is the CPU time pid has used so far, all its threads (user and
// system; the kernel counts it in ticks of 10 ms: a mean over several
// events says more than one).
func cpuTime(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 {
		s = s[i+1:]
	}
	f := strings.Fields(s)
	if len(f) < 13 {
		return 0
	}
	u, _ := strconv.Atoi(f[11])
	k, _ := strconv.Atoi(f[12])
	return time.Duration(u+k) * 10 * time.Millisecond
}

// peakKB is the peak resident memory of pid (VmHWM).
func peakKB(pid int) int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			n, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			return n
		}
	}
	return 0
}

// stop ends a tool and whatever it started (its process group: Meld's
// instance left running would take the next Meld's files and open no
// window of its own).
func stop(c *exec.Cmd) {
	if c.Process != nil {
		syscall.Kill(-c.Process.Pid, syscall.SIGKILL)
		c.Process.Kill()
		c.Wait()
	}
}

// command is exec.Command in a process group of its own.
func command(name string, args ...string) *exec.Cmd {
	c := exec.Command(name, args...)
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return c
}
