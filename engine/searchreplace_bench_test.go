package engine

import (
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"
)

// cpuTime is the process's user+system CPU time; benchmarks report it per
// op as well, since wall time is unreliable on a busy machine.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// loopCPU runs f b.N times (b.Loop) and reports CPU ns/op.
func loopCPU(b *testing.B, f func()) {
	b.ReportAllocs()
	start := cpuTime()
	n := 0
	for b.Loop() {
		f()
		n++
	}
	b.ReportMetric(float64((cpuTime()-start).Nanoseconds())/float64(n), "cpu-ns/op")
}

// benchGoFile returns about n lines of varied Go code.
func benchGoFile(n int) string {
	var b strings.Builder
	for i, lines := 0, 0; lines < n; i, lines = i+1, lines+11 {
		fmt.Fprintf(&b, "// f%d computes value %d for the caller.\nfunc f%d(x int) (int, error) {\n\tif x < %d {\n\t\treturn 0, fmt.Errorf(\"f%d: %%d too small\", x)\n\t}\n\tfor j := 0; j < %d; j++ {\n\t\tx += j * %d\n\t}\n\treturn x, nil\n}\n\n",
			i, i*7, i, i%13, i, i%17+1, i%5+2)
	}
	return b.String()
}

// benchBlock returns lines [from, from+n) of file.
func benchBlock(file string, from, n int) []string {
	return strings.Split(file, "\n")[from : from+n]
}

func benchDiff(search []string, replace string) string {
	return "------- SEARCH\n" + strings.Join(search, "\n") + "\n=======\n" + replace + "+++++++ REPLACE\n"
}

// BenchmarkSearchReplaceNoMatch is a failed 50-line block on a 100k-line
// file: every fallback runs and the closest lines are computed.
func BenchmarkSearchReplaceNoMatch(b *testing.B) {
	file := benchGoFile(100000)
	block := benchBlock(file, 50000, 50)
	nearMiss := append(append([]string(nil), block[:49]...), "\treturn changed, nil")
	reindented := make([]string, 50)
	for i, l := range nearMiss {
		reindented[i] = strings.ReplaceAll(l, "\t", "  ")
	}
	adversarial := strings.Repeat("\t}\n", 100000)
	braces := append(strings.Split(strings.Repeat("}\n", 49), "\n")[:49], "other")
	cases := []struct{ name, file, diff string }{
		{"near-miss", file, benchDiff(nearMiss, "x\n")},
		{"re-indented", file, benchDiff(reindented, "x\n")},
		{"adversarial", adversarial, benchDiff(braces, "x\n")},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			if _, err := Apply(c.file, SearchReplace{Text: c.diff}); err == nil {
				b.Fatal("the block applied; want a failure")
			}
			loopCPU(b, func() { Apply(c.file, SearchReplace{Text: c.diff}) })
		})
	}
}

// BenchmarkSearchReplaceExactHit is a 50-line block found exactly, once,
// in a 100k-line file (Cline's constructNewFileContent: an indexOf and the
// splice) near its start, in its middle and near its end: the byte-offset
// path finds it by skipping ahead, proves it the only place by scanning on
// from its end, and splits no line. floor is what any answer costs at
// least, the new file allocated and copied once (Cline's V8 answer is a
// rope of three slices, copied only when read).
func BenchmarkSearchReplaceExactHit(b *testing.B) {
	file := benchGoFile(100000)
	for _, c := range []struct {
		name string
		at   int
	}{{"start", 100}, {"middle", 50000}, {"end", 99900}} {
		block := benchBlock(file, c.at, 50) // its functions' numbers are the file's only
		diff := benchDiff(block, "x\n")
		b.Run(c.name, func(b *testing.B) {
			res, err := Apply(file, SearchReplace{Text: diff})
			if err != nil || len(res.Matches) != 1 || res.Matches[0].Strategy != StrategyExact || res.Matches[0].Loose() || res.Matches[0].StartLine != c.at+1 {
				b.Fatalf("Apply = %+v, %v; want one exact match at line %d", res.Matches, err, c.at+1)
			}
			loopCPU(b, func() { Apply(file, SearchReplace{Text: diff}) })
		})
	}
	b.Run("floor", func(b *testing.B) {
		loopCPU(b, func() {
			var sb strings.Builder
			sb.Grow(len(file))
			sb.WriteString(file[:len(file)/2])
			sb.WriteString("x\n")
			sb.WriteString(file[len(file)/2:])
			_ = sb.String()
		})
	})
}

// BenchmarkSearchReplaceReindented is a 50-line block found by line-trimmed
// matching on a 100k-line file.
func BenchmarkSearchReplaceReindented(b *testing.B) {
	file := benchGoFile(100000)
	block := benchBlock(file, 50000, 50)
	for i, l := range block {
		block[i] = strings.ReplaceAll(l, "\t", "  ")
	}
	diff := benchDiff(block, "x\n")
	res, err := Apply(file, SearchReplace{Text: diff})
	if err != nil || res.Matches[0].Strategy != StrategyLineTrimmed {
		b.Fatalf("Apply = %v, %v; want a line-trimmed match", res.Matches, err)
	}
	loopCPU(b, func() { Apply(file, SearchReplace{Text: diff}) })
}

// BenchmarkStreamWrite streams a 10k-line file in 2,000 chunks.
func BenchmarkStreamWrite(b *testing.B) {
	content := benchGoFile(10000)
	const chunks = 2000
	size := len(content)/chunks + 1
	loopCPU(b, func() {
		s, _ := NewStream(content, FormatWrite)
		for i := 0; i < len(content); i += size {
			s.Feed(content[i:min(i+size, len(content))])
		}
	})
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*chunks), "ns/chunk")
}

// BenchmarkStreamSearchReplace streams 20 blocks for a 10k-line file in
// 16-byte chunks, then closes the stream.
func BenchmarkStreamSearchReplace(b *testing.B) {
	file := benchGoFile(10000)
	lines := strings.Split(file, "\n")
	var diff strings.Builder
	for k := 0; k < 20; k++ {
		at := 100 + k*450
		diff.WriteString("Block " + fmt.Sprint(k) + ":\n")
		diff.WriteString(benchDiff(lines[at:at+5], strings.Join(lines[at:at+5], "\n")+"\n\t// changed\n"))
	}
	payload := diff.String()
	if _, err := Apply(file, SearchReplace{Text: payload}); err != nil {
		b.Fatal(err)
	}
	const size = 16
	loopCPU(b, func() {
		s, _ := NewStream(file, FormatSearchReplace)
		for i := 0; i < len(payload); i += size {
			if _, err := s.Feed(payload[i:min(i+size, len(payload))]); err != nil {
				b.Fatal(err)
			}
		}
		if _, err := s.Close(); err != nil {
			b.Fatal(err)
		}
	})
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*(len(payload)/size+1)), "ns/chunk")
}
