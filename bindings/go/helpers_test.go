package hiera

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// The project's directories, from bindings/go.
var (
	examplesDir    = filepath.Join("..", "..", "examples")
	conformanceDir = filepath.Join("..", "..", "tests", "conformance")
	// Cases recorded from OpenVox 8 (run with Options.Puppet 8).
	conformanceP8Dir = filepath.Join("..", "..", "tests", "conformance-p8")
)

// recorded is an expected.json: the scope and Puppet's answers.
type recorded struct {
	Scope   json.RawMessage `json:"scope"`
	Results []map[string]json.RawMessage
}

func readRecorded(t testing.TB, dir string) recorded {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var r recorded
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatalf("%s/expected.json: %v", dir, err)
	}
	return r
}

// example is the README's control repo opened for its recorded node, with
// Puppet's answers by key (canonical JSON; "" for not found).
type example struct {
	h    *Hiera
	s    *Session
	keys []string
	want map[string]string
}

func openExample(t testing.TB) *example {
	t.Helper()
	abs, err := filepath.Abs(examplesDir)
	if err != nil {
		t.Fatal(err)
	}
	h, err := Open(Options{HieraConfig: filepath.Join(abs, "hiera.yaml"), EnvironmentPath: filepath.Join(abs, "environments")})
	if err != nil {
		t.Fatal(err)
	}
	rec := readRecorded(t, abs)
	s, err := h.SessionJSON(rec.Scope)
	if err != nil {
		t.Fatal(err)
	}
	ex := &example{h: h, s: s, want: map[string]string{}}
	for _, r := range rec.Results {
		var key string
		if err := json.Unmarshal(r["key"], &key); err != nil {
			t.Fatal(err)
		}
		ex.keys = append(ex.keys, key)
		if v, ok := r["value"]; ok {
			ex.want[key] = mustCanon(t, v)
		} else {
			ex.want[key] = ""
		}
	}
	t.Cleanup(func() { s.Close(); h.Close() })
	return ex
}

// check compares one answer with Puppet's.
func (ex *example) check(key string, raw json.RawMessage, found bool, err error) error {
	if err != nil {
		return fmt.Errorf("%s: %v", key, err)
	}
	want := ex.want[key]
	if !found {
		if want != "" {
			return fmt.Errorf("%s: not found, want %s", key, want)
		}
		return nil
	}
	got, cerr := canon(raw)
	if cerr != nil || got != want {
		return fmt.Errorf("%s: got %s, want %s (%v)", key, raw, want, cerr)
	}
	return nil
}

// canon renders JSON text canonically without reordering anything: object
// members in their order, number literals as written (1 and 1.0 differ),
// strings re-escaped one way, no whitespace. Two texts with the same canon
// are the same Hiera value, key order included.
func canon(data []byte) (string, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var e encoder
	if err := canonValue(dec, &e); err != nil {
		return "", err
	}
	if dec.More() {
		return "", fmt.Errorf("data after the value")
	}
	return e.buf.String(), nil
}

func canonValue(dec *json.Decoder, e *encoder) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch t := tok.(type) {
	case json.Delim:
		open, close := byte(t), byte(']')
		if t == '{' {
			close = '}'
		}
		e.buf.WriteByte(open)
		for i := 0; dec.More(); i++ {
			if i > 0 {
				e.buf.WriteByte(',')
			}
			if open == '{' {
				k, err := dec.Token()
				if err != nil {
					return err
				}
				e.str(k.(string))
				e.buf.WriteByte(':')
			}
			if err := canonValue(dec, e); err != nil {
				return err
			}
		}
		if _, err := dec.Token(); err != nil {
			return err
		}
		e.buf.WriteByte(close)
	case json.Number:
		e.buf.WriteString(string(t))
	case string:
		e.str(t)
	case bool:
		fmt.Fprint(&e.buf, t)
	case nil:
		e.buf.WriteString("null")
	}
	return nil
}

func mustCanon(t testing.TB, data []byte) string {
	t.Helper()
	c, err := canon(data)
	if err != nil {
		t.Fatalf("canon(%s): %v", data, err)
	}
	return c
}

// fixture writes files (path -> content) under a new temporary directory.
func fixture(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
