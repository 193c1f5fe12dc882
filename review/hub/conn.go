package hub

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
)

// Credentials say who connects to a hub: a name (a desk's or a
// reviewer's, as the hub's users list it) and the NATS NKey seed file the
// hub issued for it.
type Credentials struct {
	Name string
	Seed string // path of the seed file (mode 0600, the user's own)
}

// DialOptions are how a desk or a reviewer reaches a hub.
type DialOptions struct {
	// URL is one or more hub servers, comma-separated: nats://host:port
	// on loopback; off loopback tls://host:port (plain text is refused).
	URL   string
	Creds Credentials
	// CA is a PEM file of the certificate authority that signed the
	// hub's certificate; the system's roots if "".
	CA string
	// OnState, if set, is told when the connection drops ("disconnected"),
	// comes back ("reconnected"), or the hub refuses something ("error":
	// a permission the user does not have).
	OnState func(state string, err error)
}

// Loopback reports whether host (a name or an address) is this machine:
// localhost, 127.0.0.0/8 or ::1.
func Loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// CheckURL checks a hub URL list: every server is nats:// or tls://, and
// a server off loopback is reached over TLS. It returns whether any server
// needs TLS.
func CheckURL(list string) (tlsNeeded bool, err error) {
	if strings.TrimSpace(list) == "" {
		return false, errors.New("hub: no hub URL given (say --hub nats://127.0.0.1:4222, or tls://HOST:PORT off this machine)")
	}
	for _, s := range strings.Split(list, ",") {
		u, err := url.Parse(strings.TrimSpace(s))
		if err != nil || u.Host == "" {
			return false, fmt.Errorf("hub: %q is not a hub URL (nats://127.0.0.1:4222, or tls://HOST:PORT off this machine)", s)
		}
		if u.User != nil {
			return false, fmt.Errorf("hub: %q holds a user or password; the hub takes an NKey seed file (--hub-creds), never a secret in a URL, which other users can read from the process list", u.Redacted())
		}
		switch u.Scheme {
		case "tls":
			tlsNeeded = true
		case "nats":
			if !Loopback(u.Hostname()) {
				return false, fmt.Errorf("hub: %s is not on this machine, and nats:// is plain text: use tls://%s (with --hub-ca if its certificate is not signed by a system root)", u.Host, u.Host)
			}
		default:
			return false, fmt.Errorf("hub: %q: a hub URL starts with nats:// (loopback) or tls://", s)
		}
	}
	return tlsNeeded, nil
}

// Dial connects to the hub as o.Creds.Name. It reconnects by itself,
// forever, after the connection drops; replies come back only on the
// name's own inbox subjects (the hub gives each user only its own).
func Dial(o DialOptions) (*nats.Conn, error) {
	tlsNeeded, err := CheckURL(o.URL)
	if err != nil {
		return nil, err
	}
	if err := CheckName(o.Creds.Name); err != nil {
		return nil, err
	}
	if err := checkSeedFile(o.Creds.Seed); err != nil {
		return nil, err
	}
	auth, err := nats.NkeyOptionFromSeed(o.Creds.Seed)
	if err != nil {
		return nil, fmt.Errorf("hub: reading the seed file %s: %w", o.Creds.Seed, err)
	}
	opts := []nats.Option{auth,
		nats.Name("diffdesk " + o.Creds.Name),
		nats.CustomInboxPrefix(InboxPrefix(o.Creds.Name)),
		// A server the cluster announces may be off loopback: only the
		// servers the user named are dialled, under the rule above.
		nats.IgnoreDiscoveredServers(),
		nats.MaxReconnects(-1), nats.ReconnectWait(250 * time.Millisecond),
		nats.RetryOnFailedConnect(true),
		nats.Timeout(5 * time.Second),
	}
	if tlsNeeded || o.CA != "" {
		opts = append(opts, nats.Secure())
		if o.CA != "" {
			opts = append(opts, nats.RootCAs(o.CA))
		}
	}
	if o.OnState != nil {
		opts = append(opts,
			nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) { o.OnState("error", err) }),
			nats.DisconnectErrHandler(func(_ *nats.Conn, err error) { o.OnState("disconnected", err) }),
			nats.ReconnectHandler(func(*nats.Conn) { o.OnState("reconnected", nil) }))
	}
	nc, err := nats.Connect(o.URL, opts...)
	if err != nil {
		return nil, fmt.Errorf("hub: connecting to %s as %s: %w", o.URL, o.Creds.Name, err)
	}
	return nc, nil
}

// InboxPrefix is the subject prefix of name's replies; the hub lets only
// name subscribe to it.
func InboxPrefix(name string) string { return "_INBOX_" + name }

// checkSeedFile refuses a seed file other users could read or write.
func checkSeedFile(path string) error {
	if path == "" {
		return errors.New("hub: no seed file given (--hub-creds FILE, issued by `deskctl hub add`)")
	}
	st, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("hub: the seed file: %w", err)
	}
	if st.Mode().Perm()&0o077 != 0 {
		return fmt.Errorf("hub: the seed file %s is mode %o: anyone who reads it can act as its user on the hub; chmod 600 %s", path, st.Mode().Perm(), path)
	}
	return nil
}
