package hiera

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// headerSection returns the lines of include/hiera.h's top comment from the
// line that starts with title to the next blank comment line.
func headerSection(t *testing.T, title string) []string {
	t.Helper()
	h, err := os.ReadFile(filepath.Join("..", "..", "include", "hiera.h"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(h)
	start := strings.Index(text, " * "+title)
	if start < 0 {
		t.Fatalf("include/hiera.h has no %q section", title)
	}
	var lines []string
	for _, l := range strings.Split(text[start:], "\n")[1:] {
		if strings.TrimSpace(l) == "*" {
			break
		}
		lines = append(lines, l)
	}
	return lines
}

func TestErrorKindsAreTheHeaders(t *testing.T) {
	var header []ErrorKind
	for _, l := range headerSection(t, "Error kinds (") {
		if rest := strings.TrimPrefix(l, " *   "); rest != l && !strings.HasPrefix(rest, " ") {
			header = append(header, ErrorKind(strings.Fields(rest)[0]))
		}
	}
	if fmt.Sprint(header) != fmt.Sprint(LibraryKinds) {
		t.Fatalf("include/hiera.h lists the kinds %v, the package %v", header, LibraryKinds)
	}
}

func TestStatusesAreTheHeaders(t *testing.T) {
	h, err := os.ReadFile(filepath.Join("..", "..", "include", "hiera.h"))
	if err != nil {
		t.Fatal(err)
	}
	found := regexp.MustCompile(`(?m)^  (HIERA_[A-Z_]+) = (\d+),$`).FindAllStringSubmatch(string(h), -1)
	if len(found) != 6 {
		t.Fatalf("expected the 6 statuses of hiera_status in the header, found %d", len(found))
	}
	for _, m := range found {
		n, _ := strconv.Atoi(m[2])
		if got := Status(n).String(); got != m[1] {
			t.Errorf("Status(%d) is %s in Go, %s in the header", n, got, m[1])
		}
	}
}

// limitsRepo writes a control repo with one data file.
func limitsRepo(t *testing.T, common string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	hy := "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n"
	if err := os.WriteFile(filepath.Join(dir, "hiera.yaml"), []byte(hy), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "data", "common.yaml"), []byte(common), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestLimits(t *testing.T) {
	var chain strings.Builder
	for i := 0; i < 10000; i++ {
		fmt.Fprintf(&chain, "k%d: \"%%{lookup('k%d')}\"\n", i, i+1)
	}
	chain.WriteString("k10000: end\nshort: \"%{lookup('k9995')}\"\n")
	var bomb strings.Builder
	for i := 0; i < 9; i++ {
		fmt.Fprintf(&bomb, "b%d: \"%s\"\n", i, strings.Repeat(fmt.Sprintf("%%{lookup('b%d')}", i+1), 9))
	}
	bomb.WriteString("b9: " + strings.Repeat("x", 60) + "\n")
	dir := limitsRepo(t, chain.String()+bomb.String())
	open := func(l *Limits) *Session {
		h, err := Open(Options{HieraConfig: filepath.Join(dir, "hiera.yaml"), EnvironmentPath: filepath.Join(dir, "environments"), Limits: l})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { h.Close() })
		s, err := h.Session(map[string]any{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	wantLimit := func(s *Session, key, limit string) {
		t.Helper()
		_, _, err := s.Lookup(key)
		var herr *Error
		if !errors.As(err, &herr) || herr.Kind != KindLimit || !errors.Is(err, &Error{Kind: KindLimit}) {
			t.Fatalf("%s: want a limit error, got %v", key, err)
		}
		if !strings.Contains(herr.Message, "(limit "+limit+" = ") || !strings.Contains(herr.Message, "common.yaml") {
			t.Fatalf("%s: the message names neither the limit %s nor the file: %s", key, limit, herr.Message)
		}
	}
	s := open(nil)
	wantLimit(s, "k0", "lookup_depth")
	wantLimit(s, "b0", "string_bytes")
	if v, found, err := s.Lookup("short"); err != nil || !found || v != "end" {
		t.Fatalf("a chain of 6 lookups: %v %v %v", v, found, err)
	}
	// Settable: a shallower depth, a smaller string.
	s = open(&Limits{LookupDepth: 3, StringBytes: 100})
	wantLimit(s, "short", "lookup_depth")
	wantLimit(s, "b8", "string_bytes")
	// A negative limit is refused when the configuration is opened.
	_, err := Open(Options{HieraConfig: filepath.Join(dir, "hiera.yaml"), Limits: &Limits{LookupDepth: -1}})
	var herr *Error
	if !errors.As(err, &herr) || herr.Kind != KindInvalidArgument || !strings.Contains(herr.Message, "lookup_depth") {
		t.Fatalf("a negative limit: want invalid_argument naming it, got %v", err)
	}
}

func TestConfine(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "repo")
	if err := os.MkdirAll(filepath.Join(dir, "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	hy := "version: 5\nhierarchy:\n  - name: node\n    path: \"%{facts.p}.yaml\"\n"
	if err := os.WriteFile(filepath.Join(dir, "hiera.yaml"), []byte(hy), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "secret.yaml"), []byte("k: secret\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	scope := map[string]any{"facts": map[string]any{"p": "../../secret"}}
	for _, confine := range []bool{false, true} {
		h, err := Open(Options{HieraConfig: filepath.Join(dir, "hiera.yaml"), EnvironmentPath: filepath.Join(dir, "environments"), Confine: confine})
		if err != nil {
			t.Fatal(err)
		}
		s, err := h.Session(scope)
		if err != nil {
			t.Fatal(err)
		}
		v, found, err := s.Lookup("k")
		var herr *Error
		if confine && (!errors.As(err, &herr) || herr.Kind != KindIO || !strings.Contains(herr.Message, "outside the directories")) {
			t.Fatalf("confined: want an io error, got %v %v %v", v, found, err)
		}
		if !confine && (err != nil || v != "secret") {
			t.Fatalf("not confined: want the file read, got %v %v %v", v, found, err)
		}
		s.Close()
		h.Close()
	}
}

// FileCheckInterval: a configuration that trusts a file's stat for an hour
// answers a new session from the file as it was; the default (0) sees the
// change at the next session, watched or not (DisableFileWatch). A negative
// interval is refused.
func TestFileCheckInterval(t *testing.T) {
	dir := limitsRepo(t, "k: first\n")
	answer := func(h *Hiera) any {
		s, err := h.Session(map[string]any{})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		v, found, err := s.Lookup("k")
		if err != nil || !found {
			t.Fatalf("k: %v %v", found, err)
		}
		return v
	}
	open := func(d time.Duration, unwatched bool) *Hiera {
		h, err := Open(Options{HieraConfig: filepath.Join(dir, "hiera.yaml"),
			EnvironmentPath: filepath.Join(dir, "environments"), FileCheckInterval: d,
			DisableFileWatch: unwatched})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { h.Close() })
		return h
	}
	trusting, checking, stating := open(time.Hour, false), open(0, false), open(0, true)
	if a, b, c := answer(trusting), answer(checking), answer(stating); a != "first" || b != "first" || c != "first" {
		t.Fatalf("before the change: %v %v %v", a, b, c)
	}
	// Another size: the change shows in the stamp whatever the
	// filesystem's time granularity.
	if err := os.WriteFile(filepath.Join(dir, "data", "common.yaml"), []byte("k: second version\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if a := answer(trusting); a != "first" {
		t.Fatalf("an hour's interval: want the file as it was, got %v", a)
	}
	if b := answer(checking); b != "second version" {
		t.Fatalf("no interval: want the change, got %v", b)
	}
	if c := answer(stating); c != "second version" {
		t.Fatalf("no interval, not watched: want the change, got %v", c)
	}
	_, err := Open(Options{HieraConfig: filepath.Join(dir, "hiera.yaml"), FileCheckInterval: -time.Second})
	var herr *Error
	if !errors.As(err, &herr) || herr.Kind != KindInvalidArgument || !strings.Contains(herr.Message, "file_check_interval") {
		t.Fatalf("a negative interval: want invalid_argument naming it, got %v", err)
	}
}
