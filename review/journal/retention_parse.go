package journal

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// ParseAge parses an age or duration: Go's time.ParseDuration forms
// ("36h", "90m") plus whole or fractional days and weeks ("90d", "2w",
// "1.5d"). It is the form of the history keep_for setting and of deskctl's
// --since and --older-than.
func ParseAge(s string) (time.Duration, error) {
	t := strings.TrimSpace(s)
	unit := time.Duration(0)
	switch {
	case strings.HasSuffix(t, "d"):
		unit = 24 * time.Hour
	case strings.HasSuffix(t, "w"):
		unit = 7 * 24 * time.Hour
	}
	if unit == 0 {
		d, err := time.ParseDuration(t)
		if err != nil || d < 0 {
			return 0, fmt.Errorf("age %q: want a duration like 90d, 2w, 36h or 30m", s)
		}
		return d, nil
	}
	n, err := strconv.ParseFloat(t[:len(t)-1], 64)
	if err != nil || !(n >= 0) || n*float64(unit) >= math.MaxInt64 {
		return 0, fmt.Errorf("age %q: want a duration like 90d, 2w, 36h or 30m (at most 290 years)", s)
	}
	return time.Duration(n * float64(unit)), nil
}

// byteUnits are the size suffixes ParseByteSize accepts, longest first.
var byteUnits = []struct {
	suffix string
	n      int64
}{
	{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40},
	{"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12},
	{"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"T", 1 << 40},
	{"B", 1},
}

// ParseByteSize parses a size in bytes: a plain number, or one with a
// unit (KB, MB, GB, TB are powers of 1000; KiB, MiB, GiB, TiB and the bare
// K, M, G, T are powers of 1024), case-insensitive, e.g. "500MB", "2GiB".
// It is the form of the history max_size setting and of deskctl's
// --max-size.
func ParseByteSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	mult := int64(1)
	for _, u := range byteUnits {
		if len(t) > len(u.suffix) && strings.EqualFold(t[len(t)-len(u.suffix):], u.suffix) {
			t, mult = strings.TrimSpace(t[:len(t)-len(u.suffix)]), u.n
			break
		}
	}
	n, err := strconv.ParseFloat(t, 64)
	if err != nil || !(n >= 0) || n*float64(mult) >= math.MaxInt64 {
		return 0, fmt.Errorf("size %q: want bytes like 2GB, 500MiB or 1048576", s)
	}
	return int64(n * float64(mult)), nil
}

// ParseRetentionPolicy builds a policy from the config's [history]
// settings keep_for (an age for ParseAge) and max_size (a size for
// ParseByteSize); "" leaves that limit off. Errors name the key.
func ParseRetentionPolicy(keepFor, maxSize string) (RetentionPolicy, error) {
	var p RetentionPolicy
	var err error
	if keepFor != "" {
		if p.MaxAge, err = ParseAge(keepFor); err != nil {
			return p, fmt.Errorf("history.keep_for: %w", err)
		}
	}
	if maxSize != "" {
		if p.MaxBytes, err = ParseByteSize(maxSize); err != nil {
			return p, fmt.Errorf("history.max_size: %w", err)
		}
	}
	return p, nil
}
