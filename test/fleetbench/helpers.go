package main

import (
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/diffdesk/diffdesk/review/deskrpc"
	"github.com/diffdesk/diffdesk/review/hub"
	"github.com/diffdesk/diffdesk/review/remote"
	"github.com/fsnotify/fsnotify"
)

// memory measures what pending proposals cost: a desk process of their
// own (linked to the hub) before and after they arrive, and the window's
// heap holding them over the hub and over the desk's socket.
func (f *fleet) memory(rep *Report, hubURL string) error {
	n := f.c.Memory
	d := &desk{name: "memdesk", root: filepath.Join(f.dir, "ws", "memdesk"), state: filepath.Join(f.dir, "state", "memdesk"),
		sock: filepath.Join(f.dir, "run", "memdesk", "desk.sock"), url: strings.Join(f.urls[:2], ",")}
	for _, dir := range []string{d.root, d.state} {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return err
		}
	}
	if err := noDoors(d.state); err != nil {
		return err
	}
	if err := f.run(d); err != nil {
		return err
	}
	f.desks = append(f.desks, d)
	time.Sleep(2 * time.Second) // linked, settled
	before, err := rss(d.cmd.Process.Pid)
	if err != nil {
		return err
	}
	line := strings.Repeat("x", 63) + "\n"
	var conns []*deskrpc.Client
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for i := range n {
		if i%500 == 0 { // a connection holds at most 1,000 proposals
			cl, err := deskrpc.Dial(d.sock)
			if err != nil {
				return err
			}
			conns = append(conns, cl)
		}
		payload := fmt.Sprintf("%04d\n", i) + strings.Repeat(line, 16)[5:]
		if err := conns[len(conns)-1].Call(f.ctx, "propose", map[string]any{"format": "write", "agent": "mem", "path": filepath.Join(d.root, fmt.Sprint(i, ".txt")), "payload": payload}, nil); err != nil {
			return err
		}
	}
	if got, err := f.waitPending(d.name, n); err != nil || got < n {
		return fmt.Errorf("%d of %d pending proposals reached the hub: %v", got, n, err)
	}
	after, err := rss(d.cmd.Process.Pid)
	if err != nil {
		return err
	}
	per := 1000 / float64(n) / 1e6
	rep.DeskMBPer1000 = float64(after-before) * per

	nc, err := hub.Dial(hub.DialOptions{URL: strings.Join(f.urls[:2], ","), Creds: hub.Credentials{Name: "rev0", Seed: f.creds("rev0")}})
	if err != nil {
		return err
	}
	defer nc.Close()
	r, err := hub.NewReviewer(f.ctx, nc, "window")
	if err != nil {
		return err
	}
	h0 := heap()
	v, err := hub.OpenView(f.ctx, r, hub.ViewLimits{})
	if err != nil {
		return err
	}
	if got := len(v.List()); got < n {
		return fmt.Errorf("the window over the hub holds %d of %d pending proposals", got, n)
	}
	rep.HubWindowMBPer1000 = float64(heap()-h0) * per
	v.Close()
	runtime.KeepAlive(v)

	h0 = heap()
	cl, err := deskrpc.Dial(d.sock)
	if err != nil {
		return err
	}
	rd, err := remote.Open(f.ctx, cl, "memdesk", "window@fleetbench")
	if err != nil {
		return err
	}
	defer rd.Close()
	if got := len(rd.List()); got != n {
		return fmt.Errorf("the window over the desk's socket holds %d of %d pending proposals", got, n)
	}
	rep.ConnectWindowMBPer1000 = float64(heap()-h0) * per
	f.logf("memory: %d pending", n)
	return nil
}

// writeCounter counts the files renamed into the agents' directories:
// one per write of a desk (atomic save: temp file, then rename), and the
// time of the first.
type writeCounter struct {
	w    *fsnotify.Watcher
	mu   sync.Mutex
	n    map[string]int
	at   map[string]time.Time
	done chan struct{}
}

func countWrites(dirs []string) (*writeCounter, error) {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	c := &writeCounter{w: w, n: map[string]int{}, at: map[string]time.Time{}, done: make(chan struct{})}
	for _, d := range dirs {
		if err := w.Add(d); err != nil {
			w.Close()
			return nil, fmt.Errorf("watching %s (raise fs.inotify.max_user_watches?): %w", d, err)
		}
	}
	go func() {
		defer close(c.done)
		for {
			select {
			case ev, ok := <-w.Events:
				if !ok {
					return
				}
				if ev.Has(fsnotify.Create) && strings.HasSuffix(ev.Name, ".txt") {
					now := time.Now()
					c.mu.Lock()
					if c.n[ev.Name]++; c.n[ev.Name] == 1 {
						c.at[ev.Name] = now
					}
					c.mu.Unlock()
				}
			case _, ok := <-w.Errors:
				if !ok {
					return
				}
			}
		}
	}()
	return c, nil
}

func (c *writeCounter) count(path string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[path]
}

func (c *writeCounter) first(path string) (time.Time, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, ok := c.at[path]
	return t, ok
}

func (c *writeCounter) close() { c.w.Close(); <-c.done }

// proxy forwards a desk's hub connections to the three nodes (one
// listener each) until cut: then it drops every connection and refuses
// new ones until healed — the desk partitioned away.
type proxy struct {
	ls    []net.Listener
	mu    sync.Mutex
	conns []net.Conn
	down  bool
}

func newProxy(urls []string) (*proxy, error) {
	p := &proxy{}
	for _, u := range urls {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		p.ls = append(p.ls, l)
		go p.serve(l, strings.TrimPrefix(u, "nats://"))
	}
	return p, nil
}

func (p *proxy) serve(l net.Listener, target string) {
	for {
		c, err := l.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		down := p.down
		p.mu.Unlock()
		if down {
			c.Close()
			continue
		}
		s, err := net.DialTimeout("tcp", target, 2*time.Second)
		if err != nil {
			c.Close()
			continue
		}
		p.mu.Lock()
		p.conns = append(p.conns, c, s)
		p.mu.Unlock()
		go func() { io.Copy(s, c); s.Close() }()
		go func() { io.Copy(c, s); c.Close() }()
	}
}

func (p *proxy) url() string {
	var us []string
	for _, l := range p.ls {
		us = append(us, "nats://"+l.Addr().String())
	}
	return strings.Join(us, ",")
}

func (p *proxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.down = true
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

func (p *proxy) heal() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.down = false
}

func (p *proxy) close() {
	p.cut()
	for _, l := range p.ls {
		l.Close()
	}
}
