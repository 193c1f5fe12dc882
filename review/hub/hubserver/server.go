// Package hubserver runs the team hub: an embedded nats-server with
// JetStream, configured as NATS documents it (accounts, users with NKeys,
// per-user subject permissions), for one machine or a small team; three of
// them form a cluster. Config writes the same configuration as a plain
// nats-server file, for a cluster run without DiffDesk.
//
// Only `deskctl hub` imports this package: a desk or a window given a hub
// URL links review/hub, the client side, and never the server.
package hubserver

import (
	"context"
	"fmt"
	"net"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/diffdesk/diffdesk/review/hub"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nkeys"
)

// Options say where a hub listens and keeps its state.
type Options struct {
	Dir  string // the hub directory: users.json, creds/, jetstream/
	Host string // listen address; "" is 127.0.0.1
	Port int    // 0 picks a free port
	// TLSCert and TLSKey are the server's certificate and key (PEM):
	// required off loopback, for clients and routes alike. TLSCA verifies
	// the other servers of a cluster off loopback.
	TLSCert, TLSKey, TLSCA string
	// ServerName names this server in its cluster ("" derives one from the
	// port).
	ServerName string
	// Cluster, if its Name is set, makes this server one of a cluster.
	Cluster Cluster
	// StoreDir is where JetStream keeps messages; "" is Dir/jetstream.
	StoreDir string
	// Limits bound the stream (hub.Limits); Replicas defaults to 3 in a
	// cluster, 1 alone.
	Limits hub.Limits
	// Log sends the server's notices to stderr.
	Log bool
}

// Cluster is this server's place in a cluster of hubs.
type Cluster struct {
	Name   string
	Host   string   // route listen address; "" is 127.0.0.1
	Port   int      // route port
	Routes []string // the other servers' route addresses, host:port
}

// Hub is a running hub server.
type Hub struct {
	s     *server.Server
	admin *nats.Conn
}

// Config is the nats-server configuration of a hub with these users:
// what Start runs, and what `deskctl hub config` prints for a plain
// nats-server. adminKey, if not "", is a public NKey given every right
// (the hub's own connection, which creates the stream).
func Config(o Options, u Users, adminKey string) (string, error) {
	host := o.Host
	if host == "" {
		host = "127.0.0.1"
	}
	tlsBlock := ""
	if o.TLSCert != "" || o.TLSKey != "" {
		if o.TLSCert == "" || o.TLSKey == "" {
			return "", fmt.Errorf("hubserver: TLS needs both a certificate and its key (--tls-cert, --tls-key)")
		}
		tlsBlock = fmt.Sprintf("tls { cert_file: %s, key_file: %s }\n", q(o.TLSCert), q(o.TLSKey))
	} else if !hub.Loopback(host) {
		return "", fmt.Errorf("hubserver: %s is not a loopback address, and the hub refuses plain text off this machine: give --tls-cert and --tls-key", host)
	}
	store := o.StoreDir
	if store == "" {
		store = filepath.Join(o.Dir, "jetstream")
	}
	name := o.ServerName
	if name == "" {
		name = "diffdesk-hub-" + strconv.Itoa(o.Port)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "server_name: %s\nlisten: %s\nmax_payload: %d\n", q(name), q(net.JoinHostPort(host, strconv.Itoa(o.Port))), hub.MaxMessage)
	b.WriteString(tlsBlock)
	fmt.Fprintf(&b, "jetstream { store_dir: %s, max_memory_store: 268435456, max_file_store: 17179869184 }\n", q(store))
	if o.Cluster.Name != "" {
		if err := hub.CheckName(o.Cluster.Name); err != nil {
			return "", err
		}
		ch := o.Cluster.Host
		if ch == "" {
			ch = "127.0.0.1"
		}
		fmt.Fprintf(&b, "cluster {\n  name: %s\n  listen: %s\n  authorization { user: route, password: %s }\n",
			q(o.Cluster.Name), q(net.JoinHostPort(ch, strconv.Itoa(o.Cluster.Port))), q(u.RouteSecret))
		offLoop := !hub.Loopback(ch)
		var routes []string
		for _, r := range o.Cluster.Routes {
			rh, _, err := net.SplitHostPort(r)
			if err != nil {
				return "", fmt.Errorf("hubserver: route %q is not host:port", r)
			}
			offLoop = offLoop || !hub.Loopback(rh)
			routes = append(routes, q("nats-route://route:"+u.RouteSecret+"@"+r))
		}
		if offLoop {
			if o.TLSCert == "" || o.TLSCA == "" {
				return "", fmt.Errorf("hubserver: the cluster's routes leave this machine; give --tls-cert, --tls-key and --tls-ca (the routes are refused in plain text)")
			}
			fmt.Fprintf(&b, "  tls { cert_file: %s, key_file: %s, ca_file: %s, verify: true }\n", q(o.TLSCert), q(o.TLSKey), q(o.TLSCA))
		}
		if len(routes) > 0 {
			fmt.Fprintf(&b, "  routes: [%s]\n", strings.Join(routes, ", "))
		}
		b.WriteString("}\n")
	}
	b.WriteString("accounts {\n  DIFFDESK {\n    jetstream { max_mem: 268435456, max_file: 17179869184, max_streams: 4, max_consumers: 4096 }\n    users: [\n")
	if adminKey != "" {
		fmt.Fprintf(&b, "      { nkey: %s }\n", q(adminKey))
	}
	for _, x := range u.Users {
		pub, sub := Permissions(x.Role, x.Name)
		fmt.Fprintf(&b, "      { nkey: %s, permissions: { publish: { allow: [%s] }, subscribe: { allow: [%s] } } }\n",
			q(x.NKey), qs(pub), qs(sub))
	}
	b.WriteString("    ]\n  }\n}\n")
	return b.String(), nil
}

// Permissions are the subjects a user of role may publish to and
// subscribe to. A desk publishes only under dd.ITS-NAME. and reads only
// the decisions keyed ITS-NAME.; a reviewer reads every desk's queue and
// creates decisions, and publishes no proposal or outcome. Neither may
// create, change, purge or delete a stream. Replies reach each user on
// its own inbox prefix only.
func Permissions(role, name string) (pub, sub []string) {
	const kvs = "KV_" + hub.Bucket
	api := "$JS.API."
	consumerOps := func(stream string) []string {
		return []string{api + "CONSUMER.MSG.NEXT." + stream + ".*", api + "CONSUMER.DELETE." + stream + ".*", api + "CONSUMER.INFO." + stream + ".*"}
	}
	sub = []string{hub.InboxPrefix(name) + ".>"}
	switch role {
	case RoleDesk:
		pub = []string{
			"dd." + name + ".>",
			api + "STREAM.INFO." + hub.Stream, api + "STREAM.INFO." + kvs,
			api + "CONSUMER.CREATE." + hub.Stream + ".*.dd." + name + ".*.*",
			api + "CONSUMER.CREATE." + kvs + ".*.$KV." + hub.Bucket + "." + name + ".>",
		}
		pub = append(pub, consumerOps(hub.Stream)...)
		pub = append(pub, consumerOps(kvs)...)
	case RoleReviewer:
		pub = []string{
			"$KV." + hub.Bucket + ".>",
			api + "STREAM.INFO." + hub.Stream, api + "STREAM.INFO." + kvs,
			api + "DIRECT.GET." + hub.Stream, api + "DIRECT.GET." + hub.Stream + ".>",
			api + "DIRECT.GET." + kvs, api + "DIRECT.GET." + kvs + ".>",
			api + "STREAM.MSG.GET." + hub.Stream, api + "STREAM.MSG.GET." + kvs,
			api + "CONSUMER.CREATE." + hub.Stream + ".>",
		}
		pub = append(pub, consumerOps(hub.Stream)...)
	}
	return pub, sub
}

func q(s string) string {
	return strconv.Quote(s)
}

func qs(list []string) string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = q(s)
	}
	return strings.Join(out, ", ")
}

// Start runs a hub: the users of o.Dir, JetStream in o.StoreDir, and the
// stream and bucket created (replicated over the cluster once it has
// formed). It returns once clients can connect and the stream exists.
func Start(o Options) (*Hub, error) {
	u, err := LoadUsers(o.Dir)
	if err != nil {
		return nil, err
	}
	kp, err := nkeys.CreateUser()
	if err != nil {
		return nil, err
	}
	adminKey, _ := kp.PublicKey()
	conf, err := Config(o, u, adminKey)
	if err != nil {
		return nil, err
	}
	opts := &server.Options{}
	if err := opts.ProcessConfigString(conf); err != nil {
		return nil, fmt.Errorf("hubserver: the generated configuration: %w", err)
	}
	opts.NoSigs, opts.NoLog = true, !o.Log
	s, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("hubserver: %w", err)
	}
	if o.Log {
		s.ConfigureLogger()
	}
	go s.Start()
	if !s.ReadyForConnections(20 * time.Second) {
		s.Shutdown()
		return nil, fmt.Errorf("hubserver: the server did not start listening on %s:%d", o.Host, o.Port)
	}
	admin, err := nats.Connect("", nats.InProcessServer(s), nats.Name("diffdesk hub"),
		nats.Nkey(adminKey, kp.Sign), nats.MaxReconnects(-1))
	if err != nil {
		s.Shutdown()
		return nil, fmt.Errorf("hubserver: the hub's own connection: %w", err)
	}
	l := o.Limits
	if l.Replicas == 0 && o.Cluster.Name != "" {
		l.Replicas = 3
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := hub.Provision(ctx, admin, l); err != nil {
		admin.Close()
		s.Shutdown()
		return nil, err
	}
	return &Hub{s: s, admin: admin}, nil
}

// ClientURL is the URL clients connect to.
func (h *Hub) ClientURL() string { return h.s.ClientURL() }

// Addr is the client listener's address.
func (h *Hub) Addr() net.Addr { return h.s.Addr() }

// Shutdown stops the server at once (a killed node, as its cluster sees
// it: connections drop, the others carry on).
func (h *Hub) Shutdown() {
	h.admin.Close()
	h.s.Shutdown()
	h.s.WaitForShutdown()
}
