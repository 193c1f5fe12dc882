package main

import (
	"fmt"
	"os"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"
)

// profileFromEnv writes a CPU profile of the window's process when
// $DIFFDESK_CPUPROFILE is FILE:SECONDS: from start-up for that long (for
// measuring where a frame's time goes; test/windowbench's runs are the
// usual thing to profile).
func profileFromEnv() {
	spec := os.Getenv("DIFFDESK_CPUPROFILE")
	if spec == "" {
		return
	}
	file, secs, _ := strings.Cut(spec, ":")
	n, err := strconv.Atoi(secs)
	if err != nil || n <= 0 || file == "" {
		fmt.Fprintf(os.Stderr, "diffdesk: DIFFDESK_CPUPROFILE=%q: want FILE:SECONDS (seconds > 0); not profiling\n", spec)
		return
	}
	f, err := os.Create(file)
	if err != nil {
		fmt.Fprintf(os.Stderr, "diffdesk: DIFFDESK_CPUPROFILE: %v; not profiling\n", err)
		return
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintf(os.Stderr, "diffdesk: DIFFDESK_CPUPROFILE: %v; not profiling\n", err)
		f.Close()
		return
	}
	time.AfterFunc(time.Duration(n)*time.Second, func() {
		pprof.StopCPUProfile()
		f.Close()
		fmt.Fprintf(os.Stderr, "diffdesk: CPU profile written to %s\n", file)
	})
}
