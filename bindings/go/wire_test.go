package hiera

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"strings"
	"testing"
)

func TestUnmarshal(t *testing.T) {
	big1, _ := new(big.Int).SetString("123456789012345678901234567890", 10)
	for _, c := range []struct {
		in   string
		want any
	}{
		{`null`, nil},
		{`true`, true},
		{`"s\u00e9\n"`, "sé\n"},
		{`42`, int64(42)},
		{`-9223372036854775808`, int64(math.MinInt64)},
		{`123456789012345678901234567890`, big1},
		{`1.0`, 1.0},
		{`1.0e+20`, 1e20},
		{`1e400`, math.Inf(1)},
		{`[1, "a", [], {}]`, []any{int64(1), "a", []any{}, map[string]any{}}},
		{`{"b": 1, "a": {"c": null}}`, map[string]any{"b": int64(1), "a": map[string]any{"c": nil}}},
		{`{"__type__": "Float", "value": "Infinity"}`, math.Inf(1)},
		{`{"__type__": "Float", "value": "-Infinity"}`, math.Inf(-1)},
		{`{"__type__": "Float", "value": "2.5"}`, 2.5},
		{`{"__type__": "Binary", "value": "//57Cg=="}`, []byte{0xff, 0xfe, '{', '\n'}},
		{`{"__type__": "Symbol", "value": "sym"}`, Symbol("sym")},
		{`{"__type__": "Sensitive", "value": {"__type__": "Symbol", "value": "s"}}`, Sensitive{Value: Symbol("s")}},
		{`{"__type__": "SemVer", "value": "1.2.3"}`, Rich{Type: "SemVer", Value: "1.2.3"}},
		{`{"__type__": "Timestamp", "value": "2024-01-01T00:00:00.000000000 UTC"}`, Rich{Type: "Timestamp", Value: "2024-01-01T00:00:00.000000000 UTC"}},
		{`{"__type__": "Hash", "entries": [[1, "a"], [null, []], [{"__type__": "Symbol", "value": "k"}, {"x": 1}]]}`,
			Entries{{int64(1), "a"}, {nil, []any{}}, {Symbol("k"), map[string]any{"x": int64(1)}}}},
		// Not tagged: the library reads these as plain hashes too.
		{`{"__type__": "Symbol", "value": "s", "extra": 1}`, map[string]any{"__type__": "Symbol", "value": "s", "extra": int64(1)}},
		{`{"__type__": "Unknown", "value": "s"}`, map[string]any{"__type__": "Unknown", "value": "s"}},
		{`{"__type__": "Symbol", "value": 1}`, map[string]any{"__type__": "Symbol", "value": int64(1)}},
		{`{"__type__": "Hash", "value": 1}`, map[string]any{"__type__": "Hash", "value": int64(1)}},
	} {
		got, err := Unmarshal([]byte(c.in))
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("Unmarshal(%s) = %#v, %v; want %#v", c.in, got, err, c.want)
		}
	}
	nan, err := Unmarshal([]byte(`{"__type__":"Float","value":"NaN"}`))
	if f, ok := nan.(float64); err != nil || !ok || !math.IsNaN(f) {
		t.Errorf("NaN: %v %v", nan, err)
	}
	for _, bad := range []string{``, `{`, `[1,]`, `1 2`, `{"a":1}x`, `{"__type__":"Binary","value":"***"}`,
		`{"__type__":"Float","value":"nope"}`, `{"__type__":"Hash","entries":[[1]]}`, `{"__type__":"Hash","entries":[1]}`} {
		_, err := Unmarshal([]byte(bad))
		var e *Error
		if !errors.As(err, &e) || e.Kind != KindInvalidArgument {
			t.Errorf("Unmarshal(%q): %v", bad, err)
		}
	}
}

func TestUnmarshalOrdered(t *testing.T) {
	v, err := UnmarshalOrdered([]byte(`{"z": 1, "a": [{"y": 2, "b": 3}], "m": {"__type__": "Hash", "entries": [[1, {"q": 1, "p": 2}]]}}`))
	if err != nil {
		t.Fatal(err)
	}
	om := v.(*OrderedMap)
	if !reflect.DeepEqual(om.Keys(), []string{"z", "a", "m"}) || om.Len() != 3 {
		t.Fatalf("Keys %v", om.Keys())
	}
	a, _ := om.Get("a")
	if inner := a.([]any)[0].(*OrderedMap); !reflect.DeepEqual(inner.Keys(), []string{"y", "b"}) {
		t.Fatalf("inner Keys %v", inner.Keys())
	}
	m, _ := om.Get("m")
	p, ok := m.(Entries).Get(int64(1))
	if !ok || !reflect.DeepEqual(p.(*OrderedMap).Keys(), []string{"q", "p"}) {
		t.Fatalf("entries %#v", m)
	}
	if _, ok := m.(Entries).Get(int64(2)); ok {
		t.Fatal("Entries.Get found a missing key")
	}
	if _, ok := (Entries{{Key: []any{}, Value: 1}}).Get([]any{}); ok {
		t.Fatal("Entries.Get compared slices")
	}
}

func TestOrderedMap(t *testing.T) {
	var m OrderedMap // the zero value works
	m.Set("b", 1).Set("a", 2).Set("c", 3).Set("b", 4)
	if !reflect.DeepEqual(m.Keys(), []string{"b", "a", "c"}) {
		t.Fatal(m.Keys())
	}
	m.Delete("a")
	m.Delete("missing")
	if v, ok := m.Get("b"); !ok || v != 4 || m.Len() != 2 {
		t.Fatal(v, ok, m.Len())
	}
	keys := m.Keys()
	keys[0] = "changed"
	if m.Keys()[0] != "b" {
		t.Fatal("Keys() is not a copy")
	}
	if !reflect.DeepEqual(m.Map(), map[string]any{"b": 4, "c": 3}) {
		t.Fatal(m.Map())
	}
	b, err := json.Marshal(struct{ M *OrderedMap }{&m})
	if err != nil || string(b) != `{"M":{"b":4,"c":3}}` {
		t.Fatalf("%s %v", b, err)
	}
	var back struct{ M *OrderedMap }
	if err := json.Unmarshal([]byte(`{"M": {"y": 1.5, "x": [1]}}`), &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.M.Keys(), []string{"y", "x"}) {
		t.Fatal(back.M.Keys())
	}
	if err := back.M.UnmarshalJSON([]byte(`[1]`)); err == nil {
		t.Fatal("UnmarshalJSON of an array")
	}
}

func TestMarshal(t *testing.T) {
	type myString string
	type myInt int16
	cyclic := map[string]any{}
	cyclic["self"] = cyclic
	var nilMap map[string]any
	var nilPtr *int
	one := 1
	for _, c := range []struct {
		in   any
		want string
	}{
		{nil, `null`}, {nilMap, `null`}, {nilPtr, `null`}, {&one, `1`}, {[]any(nil), `null`},
		{true, `true`}, {"a\"b\\c\n\t\x01\u2028é", `"a\"b\\c\n\t\u0001` + "\u2028é\""},
		{myString("x"), `"x"`}, {myInt(-7), `-7`}, {uint8(255), `255`}, {int64(math.MaxInt64), `9223372036854775807`},
		{0.0, `0.0`}, {math.Copysign(0, -1), `-0.0`}, {1.5, `1.5`}, {1e21, `1e+21`}, {1e-7, `1e-07`}, {100.0, `100.0`},
		{float32(1.1), `1.1`}, {math.NaN(), `{"__type__":"Float","value":"NaN"}`}, {math.Inf(-1), `{"__type__":"Float","value":"-Infinity"}`},
		{big.NewInt(-5), `-5`}, {[]byte("hi"), `{"__type__":"Binary","value":"aGk="}`}, {[2]byte{1, 2}, `{"__type__":"Binary","value":"AQI="}`},
		{Symbol("s"), `{"__type__":"Symbol","value":"s"}`}, {&Sensitive{Value: 1}, `{"__type__":"Sensitive","value":1}`},
		{Merge{Strategy: MergeDeep, KnockoutPrefix: "--", SortMergedArrays: true, MergeHashArrays: true},
			`{"strategy":"deep","knockout_prefix":"--","sort_merged_arrays":true,"merge_hash_arrays":true}`},
		{map[string]int{"b": 1, "a": 2}, `{"a":2,"b":1}`}, {map[bool]int{true: 1, false: 0}, `{"__type__":"Hash","entries":[[false,0],[true,1]]}`},
		{[]map[string]any{{"k": []string{"v"}}}, `[{"k":["v"]}]`}, {json.RawMessage(nil), `null`},
		{(*Merge)(nil), `null`}, {&Merge{Strategy: MergeHash}, `{"strategy":"hash"}`}, {MergeUnique, `"unique"`},
	} {
		got, err := Marshal(c.in)
		if err != nil || string(got) != c.want {
			t.Errorf("Marshal(%#v) = %s, %v; want %s", c.in, got, err, c.want)
		}
		// What Marshal writes, Unmarshal reads.
		if _, err := Unmarshal(got); err != nil {
			t.Errorf("Unmarshal(Marshal(%#v)): %v", c.in, err)
		}
	}
	for _, bad := range []any{make(chan int), func() {}, complex(1, 2), cyclic, map[string]any{"\xff": 1},
		json.RawMessage(`{`), json.Number("1x"), []any{struct{ C chan int }{}}} {
		_, err := Marshal(bad)
		var e *Error
		if !errors.As(err, &e) || e.Kind != KindInvalidArgument {
			t.Errorf("Marshal(%T): %v", bad, err)
		}
	}
}

// A Sensitive never shows its value in print.
func TestSensitivePrints(t *testing.T) {
	s := Sensitive{Value: "hunter2"}
	for _, f := range []string{"%v", "%s", "%+v", "%#v", "%q"} {
		if out := fmt.Sprintf(f, s); strings.Contains(out, "hunter2") || !strings.Contains(out, "redacted") {
			t.Errorf("%s: %s", f, out)
		}
	}
	if out := fmt.Sprint([]any{s, &s}); strings.Contains(out, "hunter2") {
		t.Errorf("in a slice: %s", out)
	}
}
