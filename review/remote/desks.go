package remote

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/diffdesk/diffdesk/review/config"
)

// Address is one desk a window reviews: where it is and what the window
// calls it.
type Address struct {
	Label  string
	Target Target
}

// Addresses reads what the window was told to review: each of values (the
// --connect flags) is an address (ParseTarget) or the label of one of the
// user config's [[connect]] entries, list; all adds every entry of list.
// A desk named twice is reviewed once. Every address, the config's too, is
// checked by ParseTarget: only the documented ssh, docker and podman
// invocations (and this user's sockets) are ever made of one.
func Addresses(values []string, all bool, list []config.ConnectEntry) ([]Address, error) {
	var out []Address
	seen := map[Target]bool{}
	add := func(label, addr, where string) error {
		t, err := ParseTarget(addr)
		if err != nil {
			if where != "" {
				err = fmt.Errorf("%s: %w", where, err)
			}
			return err
		}
		if !seen[t] {
			seen[t] = true
			out = append(out, Address{Label: label, Target: t})
		}
		return nil
	}
	byLabel := map[string]config.ConnectEntry{}
	for _, e := range list {
		byLabel[e.Label] = e
	}
	var errs []error
	for _, v := range values {
		if e, ok := byLabel[v]; ok && !strings.Contains(v, "://") && v != "local" {
			errs = append(errs, add(e.Label, e.Address, e.Origin))
			continue
		}
		if !strings.Contains(v, "://") && v != "local" && len(list) > 0 {
			var labels []string
			for _, e := range list {
				labels = append(labels, e.Label)
			}
			errs = append(errs, fmt.Errorf("%q is neither a desk's address nor a label of your config's [[connect]] (%s)", v, strings.Join(labels, ", ")))
			continue
		}
		errs = append(errs, add("", v, ""))
	}
	if all {
		if len(list) == 0 {
			errs = append(errs, errors.New("--desks reviews the desks your user config lists, and it lists none: add [[connect]] entries (label, address) to it"))
		}
		for _, e := range list {
			errs = append(errs, add(e.Label, e.Address, e.Origin))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return out, nil
}

// Specs makes a Fleet's specs of addrs: each desk reached by Dial with o,
// keeping its ShareOf the window's limits; a desk without a label is
// named by its workspace and machine once reached ("api on dev@box").
func Specs(addrs []Address, o SSHOptions) []Spec {
	var out []Spec
	o.Limits = ShareOf(o.Limits, len(addrs))
	for _, a := range addrs {
		machine := a.Target
		machine.Socket = ""
		out = append(out, Spec{Label: a.Label, Machine: machine.String(), Where: a.Target.String(), Dial: func(ctx context.Context) (Member, error) {
			d, err := Dial(ctx, a.Target, o)
			if err != nil {
				return nil, err // not a nil *Desk in a Member
			}
			return d, nil
		}})
	}
	return out
}
