package hiera

// The JSON wire format of libhiera's values (README, "Batch mode and the
// JSON wire format"), both ways.

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"math"
	"math/big"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// maxDepth bounds the nesting Marshal follows (and so catches cycles). The
// library refuses input nested deeper than 512 levels anyway.
const maxDepth = 512

// Unmarshal decodes wire JSON into Go values:
//
//	null                      nil
//	true, false               bool
//	integer (no . and no e)   int64, or *big.Int when it does not fit: exact at any size
//	other number              float64
//	string                    string
//	array                     []any
//	object                    map[string]any (UnmarshalOrdered: *OrderedMap)
//	{"__type__": "Float", "value": "NaN" | "Infinity" | "-Infinity"}   float64
//	{"__type__": "Binary", "value": BASE64}                             []byte
//	{"__type__": "Symbol", "value": S}                                  Symbol
//	{"__type__": "Sensitive", "value": V}                               Sensitive
//	{"__type__": "Hash", "entries": [[K, V], ...]}                      Entries
//	{"__type__": "SemVer" | "Timestamp" | "Timespan" | "Type" | "Regexp", "value": S}   Rich
//
// An object is one of these only when it has exactly these two members, as
// the library reads them.
func Unmarshal(data []byte) (any, error) { return unmarshal(data, false) }

// UnmarshalOrdered is Unmarshal with every JSON object decoded as an
// *OrderedMap, keeping Hiera's key order.
func UnmarshalOrdered(data []byte) (any, error) { return unmarshal(data, true) }

func unmarshal(data []byte, ordered bool) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	d := decoder{dec: dec, ordered: ordered}
	v, err := d.value()
	if err != nil {
		return nil, wireError(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, &Error{Kind: KindInvalidArgument, Message: "invalid wire JSON: data after the value"}
	}
	return v, nil
}

func wireError(err error) error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return &Error{Kind: KindInvalidArgument, Message: "invalid wire JSON: " + err.Error()}
}

type decoder struct {
	dec     *json.Decoder
	ordered bool
}

func (d *decoder) value() (any, error) {
	tok, err := d.dec.Token()
	if err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		if t == '[' {
			arr := []any{}
			for d.dec.More() {
				v, err := d.value()
				if err != nil {
					return nil, err
				}
				arr = append(arr, v)
			}
			_, err := d.dec.Token() // ']'
			return arr, err
		}
		om := &OrderedMap{values: map[string]any{}}
		for d.dec.More() {
			kt, err := d.dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := d.value()
			if err != nil {
				return nil, err
			}
			om.Set(kt.(string), v)
		}
		if _, err := d.dec.Token(); err != nil { // '}'
			return nil, err
		}
		if v, ok, err := tagged(om); ok || err != nil {
			return v, err
		}
		if d.ordered {
			return om, nil
		}
		return om.values, nil
	case json.Number:
		return number(string(t))
	}
	return tok, nil // string, bool, nil
}

func number(s string) (any, error) {
	if strings.ContainsAny(s, ".eE") {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return nil, err
		}
		return f, nil // out of range: ±Inf, as Ruby reads it
	}
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		return i, nil
	}
	b, ok := new(big.Int).SetString(s, 10)
	if !ok {
		return nil, invalidArgument("invalid wire JSON: bad integer %q", s)
	}
	return b, nil
}

// tagged decodes a {"__type__": ...} object; ok is false for a plain hash.
func tagged(om *OrderedMap) (v any, ok bool, err error) {
	if om.Len() != 2 {
		return nil, false, nil
	}
	tag, isString := om.values["__type__"].(string)
	if !isString {
		return nil, false, nil
	}
	value, hasValue := om.values["value"]
	s, valueIsString := value.(string)
	switch {
	case tag == "Float" && valueIsString:
		switch s {
		case "NaN":
			return math.NaN(), true, nil
		case "Infinity":
			return math.Inf(1), true, nil
		case "-Infinity":
			return math.Inf(-1), true, nil
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil, true, invalidArgument("invalid wire JSON: invalid Float value '%s'", s)
		}
		return f, true, nil
	case tag == "Binary" && valueIsString:
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return nil, true, invalidArgument("invalid wire JSON: invalid base64 '%s'", s)
		}
		return b, true, nil
	case tag == "Symbol" && valueIsString:
		return Symbol(s), true, nil
	case tag == "Sensitive" && hasValue:
		return Sensitive{Value: value}, true, nil
	case richTypes[tag] && valueIsString:
		return Rich{Type: tag, Value: s}, true, nil
	case tag == "Hash":
		entries, isArray := om.values["entries"].([]any)
		if !isArray {
			return nil, false, nil
		}
		out := make(Entries, 0, len(entries))
		for _, e := range entries {
			pair, isPair := e.([]any)
			if !isPair || len(pair) != 2 {
				return nil, true, invalidArgument("invalid wire JSON: Hash entries must be [key, value] pairs")
			}
			out = append(out, Entry{Key: pair[0], Value: pair[1]})
		}
		return out, true, nil
	}
	return nil, false, nil
}

// Marshal encodes a Go value in the wire format, the way the library reads
// scopes, defaults and overrides:
//
//	nil, nil pointers, nil maps and slices     null
//	bool, string (valid UTF-8)                 JSON
//	string that is not UTF-8, []byte           {"__type__":"Binary",...}
//	every int and uint type, *big.Int          integers, exact
//	float32, float64                           always with a '.' or an exponent (1.0, 1e+20), so Hiera
//	                                           sees a Float; NaN and ±Inf as {"__type__":"Float",...}
//	json.Number, json.RawMessage               as written (checked)
//	Symbol, Sensitive, Rich, Entries           their {"__type__": ...} objects
//	*OrderedMap                                an object in its key order
//	maps with string keys                      objects, keys sorted (use OrderedMap to choose the order)
//	maps with other keys                       {"__type__":"Hash",...}, entries sorted by key JSON
//	slices and arrays                          arrays
//	structs, other json.Marshalers             through encoding/json
//
// Channels, functions, complex numbers and cycles are refused.
func Marshal(v any) ([]byte, error) {
	var e encoder
	if err := e.value(v, 0); err != nil {
		return nil, err
	}
	return e.buf.Bytes(), nil
}

type encoder struct {
	buf bytes.Buffer
}

func (e *encoder) value(v any, depth int) error {
	if depth > maxDepth {
		return invalidArgument("cannot encode a value nested more than %d levels (a cycle?)", maxDepth)
	}
	switch x := v.(type) {
	case nil:
		e.buf.WriteString("null")
	case bool:
		e.buf.WriteString(strconv.FormatBool(x))
	case string:
		e.str(x)
	case Symbol:
		return e.tagged("Symbol", "value", string(x), depth)
	case Sensitive:
		return e.tagged("Sensitive", "value", x.Value, depth)
	case *Sensitive:
		if x == nil {
			e.buf.WriteString("null")
			return nil
		}
		return e.tagged("Sensitive", "value", x.Value, depth)
	case Rich:
		return e.tagged(x.Type, "value", x.Value, depth)
	case Entries:
		return e.entries(x, depth)
	case *OrderedMap:
		if x == nil {
			e.buf.WriteString("null")
			return nil
		}
		return e.orderedMap(x, depth)
	case OrderedMap:
		return e.orderedMap(&x, depth)
	case []byte:
		if x == nil {
			e.buf.WriteString("null")
			return nil
		}
		e.binary(x)
	case json.Number:
		if _, err := number(string(x)); err != nil || !json.Valid([]byte(x)) {
			return invalidArgument("cannot encode json.Number %q", string(x))
		}
		e.buf.WriteString(string(x))
	case json.RawMessage:
		if x == nil {
			e.buf.WriteString("null")
			return nil
		}
		return e.raw(x, "json.RawMessage")
	case *big.Int:
		if x == nil {
			e.buf.WriteString("null")
			return nil
		}
		e.buf.WriteString(x.String())
	case float64:
		e.float(x, 64)
	case float32:
		e.float(float64(x), 32)
	case int:
		e.buf.WriteString(strconv.FormatInt(int64(x), 10))
	case int64:
		e.buf.WriteString(strconv.FormatInt(x, 10))
	case map[string]any:
		if x == nil {
			e.buf.WriteString("null")
			return nil
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		return e.object(keys, func(k string) any { return x[k] }, depth)
	case []any:
		if x == nil {
			e.buf.WriteString("null")
			return nil
		}
		return e.array(len(x), func(i int) any { return x[i] }, depth)
	case json.Marshaler:
		if rv := reflect.ValueOf(x); rv.Kind() == reflect.Pointer && rv.IsNil() {
			e.buf.WriteString("null")
			return nil
		}
		b, err := x.MarshalJSON()
		if err != nil {
			return invalidArgument("cannot encode %T: %v", v, err)
		}
		return e.raw(b, reflect.TypeOf(v).String())
	default:
		return e.reflect(reflect.ValueOf(v), depth)
	}
	return nil
}

func (e *encoder) reflect(rv reflect.Value, depth int) error {
	switch rv.Kind() {
	case reflect.Pointer, reflect.Interface:
		if rv.IsNil() {
			e.buf.WriteString("null")
			return nil
		}
		return e.value(rv.Elem().Interface(), depth+1)
	case reflect.Bool:
		e.buf.WriteString(strconv.FormatBool(rv.Bool()))
	case reflect.String:
		e.str(rv.String())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		e.buf.WriteString(strconv.FormatInt(rv.Int(), 10))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		e.buf.WriteString(strconv.FormatUint(rv.Uint(), 10))
	case reflect.Float32:
		e.float(rv.Float(), 32)
	case reflect.Float64:
		e.float(rv.Float(), 64)
	case reflect.Slice, reflect.Array:
		if rv.Kind() == reflect.Slice && rv.IsNil() {
			e.buf.WriteString("null")
			return nil
		}
		if rv.Type().Elem().Kind() == reflect.Uint8 {
			b := make([]byte, rv.Len())
			reflect.Copy(reflect.ValueOf(b), rv)
			e.binary(b)
			return nil
		}
		return e.array(rv.Len(), func(i int) any { return rv.Index(i).Interface() }, depth)
	case reflect.Map:
		if rv.IsNil() {
			e.buf.WriteString("null")
			return nil
		}
		if rv.Type().Key().Kind() == reflect.String {
			byKey := make(map[string]reflect.Value, rv.Len())
			keys := make([]string, 0, rv.Len())
			for it := rv.MapRange(); it.Next(); {
				k := it.Key().String()
				byKey[k] = it.Value()
				keys = append(keys, k)
			}
			sort.Strings(keys)
			return e.object(keys, func(k string) any { return byKey[k].Interface() }, depth)
		}
		// Other keys: a Hash with entries, sorted by the key's JSON.
		type pair struct {
			key   []byte
			value any
		}
		pairs := make([]pair, 0, rv.Len())
		for it := rv.MapRange(); it.Next(); {
			var ke encoder
			if err := ke.value(it.Key().Interface(), depth+1); err != nil {
				return err
			}
			pairs = append(pairs, pair{ke.buf.Bytes(), it.Value().Interface()})
		}
		sort.Slice(pairs, func(i, j int) bool { return bytes.Compare(pairs[i].key, pairs[j].key) < 0 })
		e.buf.WriteString(`{"__type__":"Hash","entries":[`)
		for i, p := range pairs {
			if i > 0 {
				e.buf.WriteByte(',')
			}
			e.buf.WriteByte('[')
			e.buf.Write(p.key)
			e.buf.WriteByte(',')
			if err := e.value(p.value, depth+1); err != nil {
				return err
			}
			e.buf.WriteByte(']')
		}
		e.buf.WriteString("]}")
	case reflect.Struct:
		b, err := json.Marshal(rv.Interface())
		if err != nil {
			return invalidArgument("cannot encode %s: %v", rv.Type(), err)
		}
		return e.raw(b, rv.Type().String())
	default:
		return invalidArgument("cannot encode a %s as a Hiera value", rv.Type())
	}
	return nil
}

func (e *encoder) raw(b []byte, what string) error {
	if !json.Valid(b) {
		return invalidArgument("%s is not valid JSON", what)
	}
	return json.Compact(&e.buf, b)
}

func (e *encoder) float(f float64, bits int) {
	switch {
	case math.IsNaN(f):
		e.buf.WriteString(`{"__type__":"Float","value":"NaN"}`)
	case math.IsInf(f, 1):
		e.buf.WriteString(`{"__type__":"Float","value":"Infinity"}`)
	case math.IsInf(f, -1):
		e.buf.WriteString(`{"__type__":"Float","value":"-Infinity"}`)
	default:
		s := strconv.FormatFloat(f, 'g', -1, bits)
		if !strings.ContainsAny(s, ".e") {
			s += ".0" // 1 would be an Integer
		}
		e.buf.WriteString(s)
	}
}

func (e *encoder) binary(b []byte) {
	e.buf.WriteString(`{"__type__":"Binary","value":"`)
	e.buf.WriteString(base64.StdEncoding.EncodeToString(b))
	e.buf.WriteString(`"}`)
}

func (e *encoder) tagged(tag, field string, v any, depth int) error {
	e.buf.WriteString(`{"__type__":`)
	e.str(tag)
	e.buf.WriteString(`,"`)
	e.buf.WriteString(field)
	e.buf.WriteString(`":`)
	err := e.value(v, depth+1)
	e.buf.WriteByte('}')
	return err
}

func (e *encoder) entries(es Entries, depth int) error {
	e.buf.WriteString(`{"__type__":"Hash","entries":[`)
	for i, en := range es {
		if i > 0 {
			e.buf.WriteByte(',')
		}
		e.buf.WriteByte('[')
		if err := e.value(en.Key, depth+1); err != nil {
			return err
		}
		e.buf.WriteByte(',')
		if err := e.value(en.Value, depth+1); err != nil {
			return err
		}
		e.buf.WriteByte(']')
	}
	e.buf.WriteString("]}")
	return nil
}

func (e *encoder) orderedMap(m *OrderedMap, depth int) error {
	return e.object(m.keys, func(k string) any { return m.values[k] }, depth)
}

func (e *encoder) object(keys []string, get func(string) any, depth int) error {
	e.buf.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			e.buf.WriteByte(',')
		}
		if !utf8.ValidString(k) {
			return invalidArgument("hash key %q is not UTF-8: use Entries with a []byte key", k)
		}
		e.str(k)
		e.buf.WriteByte(':')
		if err := e.value(get(k), depth+1); err != nil {
			return err
		}
	}
	e.buf.WriteByte('}')
	return nil
}

func (e *encoder) array(n int, get func(int) any, depth int) error {
	e.buf.WriteByte('[')
	for i := 0; i < n; i++ {
		if i > 0 {
			e.buf.WriteByte(',')
		}
		if err := e.value(get(i), depth+1); err != nil {
			return err
		}
	}
	e.buf.WriteByte(']')
	return nil
}

// str writes a JSON string as the library does: '"', '\' and control
// characters escaped, everything else as UTF-8. A string that is not UTF-8
// is a Binary.
func (e *encoder) str(s string) {
	if !utf8.ValidString(s) {
		e.binary([]byte(s))
		return
	}
	e.buf.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			e.buf.WriteString(`\"`)
		case c == '\\':
			e.buf.WriteString(`\\`)
		case c == '\n':
			e.buf.WriteString(`\n`)
		case c == '\r':
			e.buf.WriteString(`\r`)
		case c == '\t':
			e.buf.WriteString(`\t`)
		case c == '\b':
			e.buf.WriteString(`\b`)
		case c == '\f':
			e.buf.WriteString(`\f`)
		case c < 0x20:
			e.buf.WriteString(`\u00`)
			e.buf.WriteByte("0123456789abcdef"[c>>4])
			e.buf.WriteByte("0123456789abcdef"[c&15])
		default:
			e.buf.WriteByte(c)
		}
	}
	e.buf.WriteByte('"')
}
