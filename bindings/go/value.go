package hiera

// The Go types of Hiera values that JSON cannot say directly. Each marshals
// to its {"__type__": ...} wire object, with encoding/json too.

// Symbol is a Ruby Symbol (`:name` in YAML data), on the wire
// {"__type__":"Symbol","value":"name"}.
type Symbol string

// MarshalJSON writes the wire object.
func (s Symbol) MarshalJSON() ([]byte, error) { return Marshal(s) }

// SensitiveText is what a Sensitive prints, as Puppet's Sensitive#to_s.
const SensitiveText = "Sensitive [value redacted]"

// Sensitive wraps a value that Puppet keeps out of logs (`convert_to:
// Sensitive`), on the wire {"__type__":"Sensitive","value":V}. It prints
// as "Sensitive [value redacted]" with fmt's %v, %s and %#v; read Value to
// get the secret.
type Sensitive struct {
	Value any
}

// String is SensitiveText: fmt's %v and %s do not show the value.
func (s Sensitive) String() string { return SensitiveText }

// GoString hides the value from fmt's %#v too.
func (s Sensitive) GoString() string { return "hiera.Sensitive{" + SensitiveText + "}" }

// MarshalJSON writes the wire object, with the value in clear: that is the
// wire format, not a log line.
func (s Sensitive) MarshalJSON() ([]byte, error) { return Marshal(s) }

// Rich is a Puppet value that the wire format carries as a typed string:
// {"__type__": "SemVer" | "Timestamp" | "Timespan" | "Type" | "Regexp",
// "value": "..."}.
type Rich struct {
	Type  string
	Value string
}

// MarshalJSON writes the wire object.
func (r Rich) MarshalJSON() ([]byte, error) { return Marshal(r) }

var richTypes = map[string]bool{"SemVer": true, "Timestamp": true, "Timespan": true, "Type": true, "Regexp": true}

// Entry is one key and value of an Entries hash.
type Entry struct {
	Key   any
	Value any
}

// Entries is a Hiera Hash whose keys are not all strings (Integers,
// Symbols, nil, Arrays, ... as YAML allows), in its order. On the wire:
// {"__type__":"Hash","entries":[[key, value], ...]}.
type Entries []Entry

// Get returns the value of the first entry whose key is k (compared with
// ==, so only comparable keys can be found).
func (es Entries) Get(k any) (any, bool) {
	for _, e := range es {
		if isComparable(e.Key) && isComparable(k) && e.Key == k {
			return e.Value, true
		}
	}
	return nil, false
}

func isComparable(v any) bool {
	switch v.(type) {
	case nil, bool, string, int64, float64, Symbol, Rich:
		return true
	}
	return false
}

// MarshalJSON writes the wire object.
func (es Entries) MarshalJSON() ([]byte, error) { return Marshal(es) }

// OrderedMap is a Hiera Hash with string keys that remembers the order of
// its keys (Hiera's hashes are ordered: a merge lists the lowest priority's
// keys first). Lookups decode into it with WithOrderedMaps, and Marshal and
// encoding/json write its keys in order. The zero value is an empty map
// ready to use; use a *OrderedMap.
type OrderedMap struct {
	keys   []string
	values map[string]any
}

// NewOrderedMap returns an empty map.
func NewOrderedMap() *OrderedMap { return &OrderedMap{} }

// Set sets k to v: a new key goes last, an existing key keeps its place.
// It returns m, so that calls chain.
func (m *OrderedMap) Set(k string, v any) *OrderedMap {
	if m.values == nil {
		m.values = map[string]any{}
	}
	if _, ok := m.values[k]; !ok {
		m.keys = append(m.keys, k)
	}
	m.values[k] = v
	return m
}

// Get returns the value of k.
func (m *OrderedMap) Get(k string) (any, bool) {
	v, ok := m.values[k]
	return v, ok
}

// Delete removes k.
func (m *OrderedMap) Delete(k string) {
	if _, ok := m.values[k]; !ok {
		return
	}
	delete(m.values, k)
	for i, x := range m.keys {
		if x == k {
			m.keys = append(m.keys[:i:i], m.keys[i+1:]...)
			break
		}
	}
}

// Keys returns the keys in order (a copy).
func (m *OrderedMap) Keys() []string { return append([]string(nil), m.keys...) }

// Len is the number of keys.
func (m *OrderedMap) Len() int { return len(m.keys) }

// Map returns the entries as a plain map (shallow: nested OrderedMaps stay).
func (m *OrderedMap) Map() map[string]any {
	out := make(map[string]any, len(m.keys))
	for k, v := range m.values {
		out[k] = v
	}
	return out
}

// MarshalJSON writes a JSON object with the keys in order, values in the
// wire format.
func (m *OrderedMap) MarshalJSON() ([]byte, error) { return Marshal(m) }

// UnmarshalJSON reads a JSON object (wire format) keeping the key order;
// nested hashes become *OrderedMap too.
func (m *OrderedMap) UnmarshalJSON(data []byte) error {
	v, err := UnmarshalOrdered(data)
	if err != nil {
		return err
	}
	om, ok := v.(*OrderedMap)
	if !ok {
		return invalidArgument("OrderedMap.UnmarshalJSON: not a JSON object (a %T)", v)
	}
	*m = *om
	return nil
}
