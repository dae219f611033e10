// Command compare-driver is the Go engine of benches/compare: it runs the
// benchmark workload through the Go package, per node and round, and writes
// results and timings in the driver format of BENCHMARKS.md.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"libhiera.dev/hiera"
)

type request struct {
	Key     json.RawMessage  `json:"key"`
	Merge   any              `json:"merge"`
	Default *json.RawMessage `json:"default"`
}

type call struct {
	key  string
	opts []hiera.LookupOption
}

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "compare-driver:", err)
		os.Exit(2)
	}
}

// scopeJSON builds the scope hiera::scope::scope_from_facts builds, keeping
// the facts' key order (the Go package accepts the scope as JSON text).
func scopeJSON(cert string, facts []byte) []byte {
	body := bytes.TrimSpace(facts)
	members := bytes.TrimSpace(body[1 : len(body)-1])
	host, domain := cert, "null"
	if i := strings.IndexByte(cert, '.'); i >= 0 {
		host, domain = cert[:i], fmt.Sprintf("%q", cert[i+1:])
	}
	var b bytes.Buffer
	b.WriteByte('{')
	if len(members) > 0 {
		b.Write(members)
		b.WriteByte(',')
	}
	fmt.Fprintf(&b, `"environment":"production","trusted":{"authenticated":"remote","certname":%q,"extensions":{},"hostname":%q,"domain":%s,"external":{}},"server_facts":{},"facts":%s,"module_name":"","title":"main","name":"main"}`,
		cert, host, domain, body)
	return b.Bytes()
}

func main() {
	corpus := flag.String("corpus", "", "corpus directory")
	nodes := flag.Int("nodes", 50, "nodes")
	rounds := flag.Int("rounds", 3, "rounds")
	results := flag.String("results", "", "results file")
	timings := flag.String("timings", "", "timings file")
	flag.Parse()
	dir, err := filepath.Abs(*corpus)
	must(err)

	var calls []call
	wl, err := os.ReadFile(filepath.Join(dir, "workload.jsonl"))
	must(err)
	for _, line := range strings.Split(string(wl), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		var r request
		must(json.Unmarshal([]byte(line), &r))
		var keys []string
		if err := json.Unmarshal(r.Key, &keys); err != nil {
			var k string
			must(json.Unmarshal(r.Key, &k))
			keys = []string{k}
		}
		var opts []hiera.LookupOption
		if r.Merge != nil {
			opts = append(opts, hiera.WithMerge(r.Merge))
		}
		if r.Default != nil {
			v, err := hiera.Unmarshal(*r.Default)
			must(err)
			opts = append(opts, hiera.WithDefault(v))
		}
		if len(keys) > 1 {
			opts = append(opts, hiera.WithFallbackKeys(keys[1:]...))
		}
		calls = append(calls, call{keys[0], opts})
	}

	files, err := filepath.Glob(filepath.Join(dir, "nodes", "*.json"))
	must(err)
	sort.Strings(files)
	if len(files) > *nodes {
		files = files[:*nodes]
	}
	type node struct {
		cert  string
		scope []byte
	}
	var ns []node
	for _, f := range files {
		facts, err := os.ReadFile(f)
		must(err)
		cert := strings.TrimSuffix(filepath.Base(f), ".json")
		ns = append(ns, node{cert, scopeJSON(cert, facts)})
	}
	open := func() *hiera.Hiera {
		h, err := hiera.Open(hiera.Options{HieraConfig: filepath.Join(dir, "hiera.yaml"), EnvironmentPath: filepath.Join(dir, "environments"), Environment: "production"})
		must(err)
		return h
	}
	response := func(raw json.RawMessage, found bool, err error) string {
		if err != nil {
			e, _ := err.(*hiera.Error)
			if e == nil {
				return fmt.Sprintf(`{"error":{"kind":"internal","message":%q}}`, err.Error())
			}
			obj := fmt.Sprintf(`{"kind":%q,"message":%q`, e.Kind, e.Message)
			if e.File != "" {
				obj += fmt.Sprintf(`,"file":%q`, e.File)
			}
			if e.Line > 0 {
				obj += fmt.Sprintf(`,"line":%d`, e.Line)
			}
			return `{"error":` + obj + `}}`
		}
		if !found {
			return `{"not_found":true}`
		}
		return `{"value":` + string(raw) + `}`
	}

	tf, err := os.Create(*timings)
	must(err)
	defer tf.Close()
	tw := bufio.NewWriter(tf)
	defer tw.Flush()
	rf, err := os.Create(*results)
	must(err)
	defer rf.Close()
	rw := bufio.NewWriter(rf)
	defer rw.Flush()
	fmt.Fprintf(tw, `{"type":"meta","engine":"libhiera %s (Go)","nodes":%d,"requests":%d,"rounds":%d}`+"\n", hiera.Version(), len(ns), len(calls), *rounds)

	// First compile: a new Hiera each time, three times, median kept.
	var samples []float64
	var h *hiera.Hiera
	for i := 0; i < 3; i++ {
		t := time.Now()
		if h != nil {
			h.Close()
		}
		h = open()
		s, err := h.SessionJSON(ns[0].scope)
		must(err)
		for _, c := range calls {
			s.LookupRaw(c.key, c.opts...)
		}
		samples = append(samples, time.Since(t).Seconds())
		s.Close()
	}
	sorted := append([]float64(nil), samples...)
	sort.Float64s(sorted)
	fmt.Fprintf(tw, `{"type":"first_compile","node":%q,"seconds":%.6f,"samples":[%.6f,%.6f,%.6f],"lookups":%d}`+"\n",
		ns[0].cert, sorted[1], samples[0], samples[1], samples[2], len(calls))

	per := make([]string, len(calls))
	for round := 0; round < *rounds; round++ {
		for _, n := range ns {
			start := time.Now()
			s, err := h.SessionJSON(n.scope)
			must(err)
			for j, c := range calls {
				t0 := time.Now()
				raw, found, err := s.LookupRaw(c.key, c.opts...)
				per[j] = fmt.Sprintf("%.3f", float64(time.Since(t0).Nanoseconds())/1000)
				if round == 0 {
					fmt.Fprintln(rw, response(raw, found, err))
				}
			}
			total := float64(time.Since(start).Nanoseconds()) / 1000
			s.Close()
			fmt.Fprintf(tw, `{"type":"compile","round":%d,"node":%q,"total_us":%.3f,"lookup_us":[%s]}`+"\n", round, n.cert, total, strings.Join(per, ","))
		}
	}
	h.Close()
}
