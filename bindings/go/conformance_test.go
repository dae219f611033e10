package hiera

// The public conformance cases (tests/conformance/**, and examples/) through
// the Go package, compared strictly with Puppet's recorded answers: the
// value's JSON with its key order and number forms, not found, or an error.
// The cases of tests/conformance-p8/** (recorded from OpenVox 8) run the
// same way with Options.Puppet 8.
// As in the Rust conformance test, a differing error text is reported and
// fails only with LIBHIERA_STRICT_MESSAGES=1. CASE=substring runs a subset.

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

type conformanceCase struct {
	dir, name string
	file      *caseFile
	rec       recorded
	puppet    int // the Puppet the case was recorded from (0: 7)
	// The functions the case's Puppet 4 data providers call
	// (host_functions.txt): Puppet ran them when it recorded the case;
	// without a host that runs them, those queries fail with Puppet's error
	// for a function it cannot find (the Ruby hand-off test runs them).
	hostFunctions []string
	needHost      int // queries answered with that error
}

// readHostFunctions reads a case's host_functions.txt (one name a line).
func readHostFunctions(dir string) []string {
	text, err := os.ReadFile(filepath.Join(dir, "host_functions.txt"))
	if err != nil {
		return nil
	}
	var names []string
	for _, line := range strings.Split(string(text), "\n") {
		if line = strings.TrimSpace(line); line != "" {
			names = append(names, line)
		}
	}
	return names
}

// hostFunctionError reports whether err is the error of a case without
// the host its data providers' functions need.
func (c *conformanceCase) hostFunctionError(err error) bool {
	var herr *Error
	if !errors.As(err, &herr) {
		return false
	}
	for _, f := range c.hostFunctions {
		if herr.Message == "Unable to find 'v4_data_hash' function named '"+f+"'" {
			return true
		}
	}
	return false
}

// loadCases finds every recorded hiera5 case of tests/conformance and
// examples/.
func loadCases(t *testing.T) (cases []conformanceCase, skipped int) {
	return loadCasesFrom(t, 0, conformanceDir, examplesDir)
}

// loadCasesFrom finds every recorded hiera5 case under roots, recorded from
// Puppet puppet (0: 7).
func loadCasesFrom(t *testing.T, puppet int, roots ...string) (cases []conformanceCase, skipped int) {
	t.Helper()
	var dirs []string
	for _, root := range roots {
		err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.Name() == "case.yaml" {
				if _, err := os.Stat(filepath.Join(filepath.Dir(p), "expected.json")); err == nil {
					dirs = append(dirs, filepath.Dir(p))
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	sort.Strings(dirs)
	filter := os.Getenv("CASE")
	for _, dir := range dirs {
		abs, err := filepath.Abs(dir)
		if err != nil {
			t.Fatal(err)
		}
		name, _ := filepath.Rel(filepath.Join("..", ".."), dir)
		if !strings.Contains(name, filter) {
			continue
		}
		text, err := os.ReadFile(filepath.Join(dir, "case.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		cf, err := readCaseYAML(string(text))
		if err != nil {
			t.Fatalf("%s/case.yaml: %v", name, err)
		}
		if cf.engine != "" && cf.engine != "hiera5" {
			skipped += len(cf.queries)
			continue
		}
		rec := readRecorded(t, dir)
		if len(rec.Results) != len(cf.queries) {
			t.Fatalf("%s: %d queries but %d results", name, len(cf.queries), len(rec.Results))
		}
		cases = append(cases, conformanceCase{dir: abs, name: name, file: cf, rec: rec, puppet: puppet,
			hostFunctions: readHostFunctions(dir)})
	}
	if len(cases) == 0 && filter == "" {
		t.Fatalf("no conformance cases under %s", roots[0])
	}
	return cases, skipped
}

func (c *conformanceCase) open(t *testing.T) *Hiera {
	env := c.file.environment
	if env == "" {
		env = "production"
	}
	var base []string
	for _, d := range c.file.settings.basemodulepath {
		base = append(base, filepath.Join(c.dir, d))
	}
	h, err := Open(Options{
		HieraConfig:     filepath.Join(c.dir, "hiera.yaml"),
		EnvironmentPath: filepath.Join(c.dir, "environments"),
		Environment:     env,
		BaseModulePath:  base,
		Strict:          c.file.settings.strict,
		Puppet:          c.puppet,
		// The recorder runs each case with its root as working directory.
		WorkingDirectory: c.dir,
	})
	if err != nil {
		t.Fatalf("%s: Open: %v", c.name, err)
	}
	return h
}

// options turns a query's merge and default into lookup options.
func queryOptions(q *OrderedMap) (opts []LookupOption) {
	if m, ok := q.Get("merge"); ok {
		opts = append(opts, WithMerge(m))
	}
	if d, ok := q.Get("default"); ok {
		opts = append(opts, WithDefault(d))
	}
	return opts
}

type conformanceReport struct {
	t                           *testing.T
	queries, failures, needHost int
	messageDiffs                []string
}

func (r *conformanceReport) fail(format string, args ...any) {
	r.failures++
	r.t.Errorf(format, args...)
}

// compare checks one answer (raw wire JSON, found, error) against the
// recorded result.
func (r *conformanceReport) compare(label string, c *conformanceCase, want map[string]json.RawMessage,
	raw json.RawMessage, found bool, err error) {
	r.queries++
	if c.hostFunctionError(err) {
		c.needHost++
		r.needHost++
		return
	}
	switch {
	case want["value"] != nil:
		if err != nil || !found {
			r.fail("%s: want value %s, got found=%v err=%v", label, want["value"], found, err)
			return
		}
		w, g := mustCanon(r.t, want["value"]), mustCanon(r.t, raw)
		if w != g {
			r.fail("%s: want %s, got %s", label, w, g)
			return
		}
		// The decoded value says the same: decoding then encoding both
		// sides gives one text (types, key order, special values).
		dw, err1 := UnmarshalOrdered(want["value"])
		dg, err2 := UnmarshalOrdered(raw)
		if err1 != nil || err2 != nil {
			r.fail("%s: decoding: %v / %v", label, err1, err2)
			return
		}
		ew, err1 := Marshal(dw)
		eg, err2 := Marshal(dg)
		if err1 != nil || err2 != nil || string(ew) != string(eg) {
			r.fail("%s: decoded values differ: %s vs %s (%v %v)", label, ew, eg, err1, err2)
		}
		if _, err := Unmarshal(raw); err != nil {
			r.fail("%s: plain decoding: %v", label, err)
		}
	case want["not_found"] != nil:
		if err != nil || found {
			r.fail("%s: want not found, got %s found=%v err=%v", label, raw, found, err)
		}
	default:
		var msg string
		_ = json.Unmarshal(want["error"], &msg)
		var herr *Error
		if !errors.As(err, &herr) {
			r.fail("%s: want error %q, got %s found=%v err=%v", label, msg, raw, found, err)
			return
		}
		if herr.Kind == "" || herr.Message == "" || herr.Status != StatusError && herr.Status != StatusInvalidArgument {
			r.fail("%s: incomplete error %#v", label, herr)
		}
		have := strings.ReplaceAll(strings.ReplaceAll(herr.Message, c.dir+"/", ""), c.dir, ".")
		if have != msg {
			r.messageDiffs = append(r.messageDiffs, label+":\n    expected: "+msg+"\n    got:      "+have)
		}
	}
}

func (r *conformanceReport) finish(what string, skipped int) {
	for _, d := range r.messageDiffs {
		r.t.Logf("message differs: %s", d)
	}
	r.t.Logf("%s: %d queries, %d failed, %d message differences, %d skipped (hiera3 cases), %d need host functions (the hand-off runs them)",
		what, r.queries, r.failures, len(r.messageDiffs), skipped, r.needHost)
	if os.Getenv("LIBHIERA_STRICT_MESSAGES") == "1" && len(r.messageDiffs) > 0 {
		r.t.Errorf("%d message differences", len(r.messageDiffs))
	}
}

// runConformance opens every case (those recorded from Puppet 7, then
// those recorded from Puppet 8) and hands it to run.
func runConformance(t *testing.T, what string, run func(c *conformanceCase, h *Hiera, rep *conformanceReport)) {
	for _, tree := range []struct {
		puppet int
		roots  []string
	}{{0, []string{conformanceDir, examplesDir}}, {8, []string{conformanceP8Dir}}} {
		cases, skipped := loadCasesFrom(t, tree.puppet, tree.roots...)
		rep := &conformanceReport{t: t}
		for i := range cases {
			h := cases[i].open(t)
			run(&cases[i], h, rep)
			h.Close()
			if len(cases[i].hostFunctions) > 0 && cases[i].needHost == 0 {
				rep.fail("%s: host_functions.txt names functions no query needed", cases[i].name)
			}
		}
		if tree.puppet != 0 {
			rep.finish(fmt.Sprintf("%s, Puppet %d", what, tree.puppet), skipped)
		} else {
			rep.finish(what, skipped)
		}
	}
}

// TestConformance runs each query as the recorder did: its own session,
// the scope given as a Go map (encoded by Marshal), one Lookup.
func TestConformance(t *testing.T) {
	runConformance(t, "conformance (Lookup)", func(c *conformanceCase, h *Hiera, rep *conformanceReport) {
		scope, err := UnmarshalOrdered(c.rec.Scope)
		if err != nil {
			t.Fatalf("%s: scope: %v", c.name, err)
		}
		for qi, q := range c.file.queries {
			key, _ := q.Get("key")
			label := fmt.Sprintf("%s #%d %s", c.name, qi, key)
			s, err := h.Session(scope.(*OrderedMap).Map())
			if err != nil {
				t.Fatalf("%s: Session: %v", label, err)
			}
			raw, found, err := s.LookupRaw(key.(string), queryOptions(q)...)
			rep.compare(label, c, c.rec.Results[qi], raw, found, err)
			s.Close()
		}
	})
}

// TestConformanceLookupMany runs each case's queries in one LookupMany on
// one session made from the recorded scope JSON.
func TestConformanceLookupMany(t *testing.T) {
	runConformance(t, "conformance (LookupMany)", func(c *conformanceCase, h *Hiera, rep *conformanceReport) {
		s, err := h.SessionJSON(c.rec.Scope)
		if err != nil {
			t.Fatalf("%s: SessionJSON: %v", c.name, err)
		}
		defer s.Close()
		reqs := make([]Request, len(c.file.queries))
		for qi, q := range c.file.queries {
			key, _ := q.Get("key")
			reqs[qi] = NewRequest(key.(string), queryOptions(q)...)
		}
		results, err := s.LookupMany(reqs...)
		if err != nil {
			t.Fatalf("%s: LookupMany: %v", c.name, err)
		}
		for qi, r := range results {
			if r.Key != reqs[qi].Key {
				t.Fatalf("%s: result %d is for %q, not %q", c.name, qi, r.Key, reqs[qi].Key)
			}
			rep.compare(c.name+" many#"+r.Key, c, c.rec.Results[qi], r.Raw, r.Found, r.Err)
		}
	})
}

// TestCaseReaderAgreesWithRuby checks the case.yaml reader against Ruby's
// own YAML (Psych) on every case, when ruby is installed.
func TestCaseReaderAgreesWithRuby(t *testing.T) {
	ruby, err := exec.LookPath("ruby")
	if err != nil {
		t.Skip("ruby is not installed")
	}
	cases, _ := loadCases(t)
	p8, _ := loadCasesFrom(t, 8, conformanceP8Dir)
	cases = append(cases, p8...)
	args := []string{"-ryaml", "-rjson", "-e",
		`ARGV.each { |f| y = YAML.respond_to?(:unsafe_load_file) ? YAML.unsafe_load_file(f) : YAML.load_file(f); puts JSON.generate([y["queries"], y["settings"] || {}]) }`}
	for _, c := range cases {
		args = append(args, filepath.Join(c.dir, "case.yaml"))
	}
	out, err := exec.Command(ruby, args...).Output()
	if err != nil {
		t.Fatalf("ruby: %v", err)
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) != len(cases) {
		t.Fatalf("ruby printed %d lines for %d cases", len(lines), len(cases))
	}
	for i, c := range cases {
		fromRuby, err := UnmarshalOrdered([]byte(lines[i]))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		want, err1 := Marshal(fromRuby)
		queries := make([]any, len(c.file.queries))
		for j, q := range c.file.queries {
			queries[j] = q
		}
		got, err2 := Marshal([]any{queries, c.file.settingsRead})
		if err1 != nil || err2 != nil || string(want) != string(got) {
			t.Errorf("%s: Ruby reads %s, the Go reader %s (%v %v)", c.name, want, got, err1, err2)
		}
	}
}
