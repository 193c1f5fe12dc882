package remote

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"sync"

	"github.com/diffdesk/diffdesk/review"
	"github.com/diffdesk/diffdesk/review/deskrpc"
)

// Target is where a desk on another machine is:
// ssh://[user@]host[:port][/socket], or a container on this one,
// docker://[user@]container[/socket] or podman://…, or a desk of this
// user's on this machine: local (the default socket) or unix:///path.
type Target struct {
	Scheme           string // "ssh", "docker", "podman" or "unix"
	User, Host, Port string // Host is the container's name for docker and podman
	Socket           string // the desk's socket there; "" for deskctl's default
}

// ParseTarget reads an address as diffdesk --connect takes it.
func ParseTarget(s string) (Target, error) {
	if s == "local" {
		return Target{Scheme: "unix"}, nil
	}
	if rest, ok := strings.CutPrefix(s, "unix://"); ok {
		if !strings.HasPrefix(rest, "/") || strings.ContainsAny(rest, "?#") {
			return Target{}, fmt.Errorf("%q: give this machine's desk as unix:///absolute/path/to/desk.sock, or local for the default socket", s)
		}
		return Target{Scheme: "unix", Socket: rest}, nil
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "ssh" && u.Scheme != "docker" && u.Scheme != "podman") || u.Host == "" || u.Opaque != "" {
		return Target{}, fmt.Errorf("%q is not a desk's address; give ssh://[user@]host[:port][/path/to/desk.sock] (or docker:// or podman:// and a container's name; local, or unix:///path/to/desk.sock, for a desk on this machine)", s)
	}
	if u.Scheme != "ssh" && u.Port() != "" {
		return Target{}, fmt.Errorf("%q: a container has no port; give %s://[user@]container[/path/to/desk.sock]", s, u.Scheme)
	}
	if _, set := u.User.Password(); set {
		return Target{}, fmt.Errorf("%q holds a password; ssh asks for it itself (or use a key)", s)
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return Target{}, fmt.Errorf("%q: an ssh address takes no ?query or #fragment", s)
	}
	t := Target{Scheme: u.Scheme, User: u.User.Username(), Host: u.Hostname(), Port: u.Port(), Socket: u.Path}
	if strings.HasPrefix(t.Host, "-") || strings.HasPrefix(t.User, "-") { // never an option of ssh or docker
		return Target{}, fmt.Errorf("%q: a host or user may not start with '-'", s)
	}
	if t.Socket == "/" {
		t.Socket = ""
	}
	return t, nil
}

// String is the address as the person gave it, for titles and messages
// (an ssh address without its scheme).
func (t Target) String() string {
	if t.Scheme == "unix" {
		if t.Socket == "" {
			return "local"
		}
		return "local:" + t.Socket
	}
	s := t.Host
	if t.User != "" {
		s = t.User + "@" + s
	}
	if t.Port != "" {
		s += ":" + t.Port
	}
	if t.Scheme != "ssh" {
		s = t.Scheme + "://" + s
	}
	return s + t.Socket
}

// SSHOptions say how to reach a Target.
type SSHOptions struct {
	// SSH is the ssh command and its own options, e.g. ["ssh", "-F",
	// "cfg"]; nil is $DIFFDESK_SSH split at spaces, else ["ssh"].
	SSH []string
	// Deskctl is deskctl's name or path on the far side; "" looks for it on
	// the PATH a non-interactive ssh command gets, then in ~/.local/bin
	// (make install) and ~/go/bin (go install).
	Deskctl string
	// Limits bound what the window keeps of the desk (zero: DefaultLimits;
	// a window over several desks gives each its ShareOf them).
	Limits Limits
	// Stderr gets ssh's own messages (host keys, passwords, errors) as they
	// come; nil discards them. The last of them are also in Dial's error.
	Stderr io.Writer
}

// Command returns the argv that runs `deskctl bridge` where t is: over
// ssh, or in the container with `docker exec -i` (podman's alike).
func (o SSHOptions) Command(t Target) []string {
	remote := o.remoteCommand(t)
	if t.Scheme == "docker" || t.Scheme == "podman" {
		argv := []string{t.Scheme, "exec", "-i"}
		if t.User != "" {
			argv = append(argv, "-u", t.User)
		}
		return append(argv, t.Host, "sh", "-c", remote)
	}
	argv := o.SSH
	if argv == nil {
		argv = strings.Fields(os.Getenv("DIFFDESK_SSH"))
	}
	if len(argv) == 0 {
		argv = []string{"ssh"}
	}
	argv = append(append([]string(nil), argv...), "-T")
	if t.Port != "" {
		argv = append(argv, "-p", t.Port)
	}
	host := t.Host
	if t.User != "" {
		host = t.User + "@" + host
	}
	return append(argv, host, "--", remote)
}

// remoteCommand is the shell command that runs deskctl bridge there.
func (o SSHOptions) remoteCommand(t Target) string {
	deskctl := "deskctl"
	if o.Deskctl != "" {
		deskctl = o.Deskctl
	}
	remote := "exec " + shellQuote(deskctl) + " bridge"
	if t.Socket != "" {
		remote += " --socket " + shellQuote(t.Socket)
	}
	if o.Deskctl == "" {
		remote = `PATH="$PATH:$HOME/.local/bin:$HOME/go/bin"; ` + remote
	}
	return remote
}

// shellQuote quotes s for a POSIX shell, which runs ssh's remote command.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// Dial runs `deskctl bridge` where t is and opens its desk
// as a reviewer named after this user and machine.
func Dial(ctx context.Context, t Target, o SSHOptions) (*Desk, error) {
	l := o.Limits.orDefault()
	if t.Scheme == "unix" { // this user's desk here: the socket's own checks, no command
		sock := t.Socket
		if sock == "" {
			sock = deskrpc.DefaultSocketPath()
		}
		conn, err := deskrpc.DialConn(sock)
		if err != nil {
			return nil, err
		}
		d, err := OpenLimited(ctx, deskrpc.NewClientMax(conn, l.MessageBytes), t.String(), review.LocalPerson(), l)
		if err != nil {
			conn.Close()
		}
		return d, err
	}
	argv := o.Command(t)
	cmd := exec.Command(argv[0], argv[1:]...)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	tail := &lastLines{}
	cmd.Stderr = tail
	if o.Stderr != nil {
		cmd.Stderr = io.MultiWriter(o.Stderr, tail)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", argv[0], err)
	}
	p := &process{cmd: cmd, in: in, out: out}
	d, err := OpenLimited(ctx, deskrpc.NewClientMax(p, l.MessageBytes), t.String(), review.LocalPerson(), l)
	if err != nil {
		p.Close()
		if msg := tail.String(); msg != "" {
			err = fmt.Errorf("%w\nssh said: %s", err, msg)
		}
		return nil, fmt.Errorf("%w\n(ran: %s)", err, strings.Join(argv, " "))
	}
	return d, nil
}

// process is ssh as a stream: its stdout read, its stdin written; Close
// ends its input and waits for it, killing it if it does not go.
type process struct {
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  io.Reader
	once sync.Once
}

func (p *process) Read(b []byte) (int, error)  { return p.out.Read(b) }
func (p *process) Write(b []byte) (int, error) { return p.in.Write(b) }

func (p *process) Close() error {
	p.once.Do(func() {
		p.in.Close()
		p.cmd.Process.Kill() // the bridge holds nothing that needs a clean end
		p.cmd.Wait()
	})
	return nil
}

// lastLines keeps the end of what a process writes to stderr.
type lastLines struct {
	mu sync.Mutex
	b  []byte
}

func (l *lastLines) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.b = append(l.b, p...)
	if len(l.b) > 2048 {
		l.b = l.b[len(l.b)-2048:]
	}
	return len(p), nil
}

func (l *lastLines) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.TrimSpace(string(l.b))
}
