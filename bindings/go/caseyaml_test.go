package hiera

// A reader for the few parts of a conformance case.yaml that the Go tests
// need (engine, environment, settings and the queries), so that they need
// nothing outside the standard library. It knows the YAML these files use:
// a top-level block mapping; `queries:` is a block sequence of block
// mappings (or of one-line flow mappings) and `settings:` a block mapping
// (or a one-line flow mapping), whose values are single-line scalars or
// flow collections, resolved as Psych (YAML 1.1) resolves them.
// Anything else under queries or settings is an error, never a guess.
// TestCaseReaderAgreesWithRuby checks it against Ruby's YAML on every case
// when ruby is installed.

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

type caseFile struct {
	engine, environment string
	queries             []*OrderedMap
	// settings as read (for the comparison with Ruby's reading), and the
	// ones the harness uses.
	settingsRead *OrderedMap
	settings     caseSettings
}

// caseSettings are a case's `settings:` (the Puppet settings the oracle
// set for it).
type caseSettings struct {
	basemodulepath []string // directories relative to the case root
	strict         Strict   // "": the Puppet version's default
}

// set takes one `settings:` entry; an unknown setting is an error.
func (cs *caseSettings) set(name string, v any) error {
	switch name {
	case "basemodulepath":
		dirs, ok := v.([]any)
		if !ok {
			return fmt.Errorf("settings.basemodulepath must be a list")
		}
		for _, d := range dirs {
			s, ok := d.(string)
			if !ok {
				return fmt.Errorf("settings.basemodulepath must hold strings")
			}
			cs.basemodulepath = append(cs.basemodulepath, s)
		}
	case "strict":
		s, _ := v.(string)
		if s != "off" && s != "warning" && s != "error" {
			return fmt.Errorf("settings.strict must be off, warning or error")
		}
		cs.strict = Strict(s)
	default:
		return fmt.Errorf("unknown setting %q", name)
	}
	return nil
}

func readCaseYAML(text string) (*caseFile, error) {
	cf := &caseFile{settingsRead: NewOrderedMap()}
	inQueries, inSettings := false, false
	var cur *OrderedMap
	curIndent := 0
	for n, line := range strings.Split(text, "\n") {
		where := func(format string, args ...any) error {
			return fmt.Errorf("line %d: %s: %q", n+1, fmt.Sprintf(format, args...), line)
		}
		trimmed := strings.TrimLeft(line, " ")
		indent := len(line) - len(trimmed)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") || trimmed == "---" {
			continue
		}
		if indent == 0 { // a top-level key
			name, rest, ok := strings.Cut(line, ":")
			if !ok {
				return nil, where("expected a top-level key")
			}
			rest = strings.TrimSpace(rest)
			inQueries, inSettings = name == "queries", name == "settings"
			if inQueries && rest != "" {
				return nil, where("queries must be a block sequence")
			}
			if inSettings && rest != "" {
				v, err := parseFlow(rest)
				m, ok := v.(*OrderedMap)
				if err != nil || !ok {
					return nil, where("settings must be a block or flow mapping")
				}
				for _, name := range m.Keys() {
					sv, _ := m.Get(name)
					if err := cf.settings.set(name, sv); err != nil {
						return nil, where("%v", err)
					}
					cf.settingsRead.Set(name, sv)
				}
				inSettings = false
			}
			if name == "engine" || name == "environment" {
				v, err := parseFlow(rest)
				if err != nil {
					return nil, where("%v", err)
				}
				s, ok := v.(string)
				if !ok {
					return nil, where("%s must be a string", name)
				}
				if name == "engine" {
					cf.engine = s
				} else {
					cf.environment = s
				}
			}
			continue
		}
		if inSettings {
			if indent != 2 {
				return nil, where("unexpected indentation under settings")
			}
			name, rest, ok := strings.Cut(trimmed, ": ")
			if !ok {
				return nil, where("expected `setting: value` (block values are not supported)")
			}
			v, err := parseFlow(rest)
			if err != nil {
				return nil, where("%v", err)
			}
			if err := cf.settings.set(name, v); err != nil {
				return nil, where("%v", err)
			}
			cf.settingsRead.Set(name, v)
			continue
		}
		if !inQueries {
			continue // the block of another top-level key
		}
		if strings.HasPrefix(trimmed, "- {") {
			// A whole query as one flow mapping.
			v, err := parseFlow(trimmed[2:])
			m, ok := v.(*OrderedMap)
			if err != nil || !ok {
				return nil, where("a query must be a mapping")
			}
			cf.queries = append(cf.queries, m)
			cur = nil
			continue
		}
		if strings.HasPrefix(trimmed, "- ") {
			cur = NewOrderedMap()
			cf.queries = append(cf.queries, cur)
			trimmed = trimmed[2:]
			curIndent = indent + 2
		} else if cur == nil || indent != curIndent {
			return nil, where("unexpected indentation under queries")
		}
		name, rest, ok := strings.Cut(trimmed, ": ")
		if !ok {
			return nil, where("expected `field: value` (block values are not supported)")
		}
		v, err := parseFlow(rest)
		if err != nil {
			return nil, where("%v", err)
		}
		cur.Set(name, v)
	}
	return cf, nil
}

// parseFlow reads one flow value: a scalar or a flow collection.
func parseFlow(s string) (any, error) {
	p := &flowParser{s: s}
	v, err := p.value(false)
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i < len(p.s) && p.s[p.i] != '#' {
		return nil, fmt.Errorf("unexpected %q after the value", p.s[p.i:])
	}
	return v, nil
}

type flowParser struct {
	s string
	i int
}

func (p *flowParser) space() {
	for p.i < len(p.s) && p.s[p.i] == ' ' {
		p.i++
	}
}

func (p *flowParser) value(inFlow bool) (any, error) {
	p.space()
	if p.i >= len(p.s) {
		return nil, nil
	}
	switch p.s[p.i] {
	case '[':
		p.i++
		arr := []any{}
		for {
			p.space()
			if p.i < len(p.s) && p.s[p.i] == ']' {
				p.i++
				return arr, nil
			}
			v, err := p.value(true)
			if err != nil {
				return nil, err
			}
			arr = append(arr, v)
			if err := p.separator(']'); err != nil {
				return nil, err
			}
		}
	case '{':
		p.i++
		om := NewOrderedMap()
		for {
			p.space()
			if p.i < len(p.s) && p.s[p.i] == '}' {
				p.i++
				return om, nil
			}
			k, err := p.scalar(true, true)
			if err != nil {
				return nil, err
			}
			ks, ok := k.(string)
			if !ok {
				return nil, fmt.Errorf("flow mapping key %v is not a string", k)
			}
			if !strings.HasPrefix(p.s[p.i:], ":") {
				return nil, fmt.Errorf("expected ':' at %q", p.s[p.i:])
			}
			p.i++
			v, err := p.value(true)
			if err != nil {
				return nil, err
			}
			om.Set(ks, v)
			if err := p.separator('}'); err != nil {
				return nil, err
			}
		}
	}
	return p.scalar(inFlow, false)
}

// separator reads a ',' or the closing bracket (left for the caller).
func (p *flowParser) separator(close byte) error {
	p.space()
	if p.i < len(p.s) && p.s[p.i] == ',' {
		p.i++
		return nil
	}
	if p.i < len(p.s) && p.s[p.i] == close {
		return nil
	}
	return fmt.Errorf("expected ',' or '%c' at %q", close, p.s[p.i:])
}

func (p *flowParser) scalar(inFlow, isKey bool) (any, error) {
	p.space()
	if p.i < len(p.s) && (p.s[p.i] == '"' || p.s[p.i] == '\'') {
		return p.quoted()
	}
	start := p.i
	for ; p.i < len(p.s); p.i++ {
		c := p.s[p.i]
		endsFlowItem := inFlow && (c == ',' || c == ']' || c == '}')
		colon := c == ':' && (inFlow || isKey) && (p.i+1 == len(p.s) || strings.IndexByte(" ,]}", p.s[p.i+1]) >= 0)
		comment := c == '#' && p.i > start && p.s[p.i-1] == ' '
		if endsFlowItem || colon || comment {
			break
		}
	}
	return resolvePlain(strings.TrimRight(p.s[start:p.i], " "))
}

func (p *flowParser) quoted() (any, error) {
	q := p.s[p.i]
	p.i++
	var b strings.Builder
	for p.i < len(p.s) {
		c := p.s[p.i]
		p.i++
		switch {
		case c == q && q == '\'' && p.i < len(p.s) && p.s[p.i] == '\'':
			b.WriteByte('\'')
			p.i++
		case c == q:
			return b.String(), nil
		case c == '\\' && q == '"':
			if p.i >= len(p.s) {
				return nil, fmt.Errorf("unterminated escape")
			}
			e := p.s[p.i]
			p.i++
			switch e {
			case '"', '\\', '/':
				b.WriteByte(e)
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case '0':
				b.WriteByte(0)
			case 'x', 'u', 'U':
				n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
				if p.i+n > len(p.s) {
					return nil, fmt.Errorf("short \\%c escape", e)
				}
				r, err := strconv.ParseUint(p.s[p.i:p.i+n], 16, 32)
				if err != nil {
					return nil, err
				}
				b.WriteRune(rune(r))
				p.i += n
			default:
				return nil, fmt.Errorf("unsupported escape \\%c", e)
			}
		default:
			b.WriteByte(c)
		}
	}
	return nil, fmt.Errorf("unterminated quoted scalar")
}

var (
	yamlInt   = regexp.MustCompile(`^[-+]?(0|[1-9][0-9]*)$`)
	yamlFloat = regexp.MustCompile(`^[-+]?([0-9]+\.[0-9]*|\.[0-9]+)([eE][-+][0-9]+)?$`)
	// Plain scalars that Psych would read as something this reader does not
	// know (octal, hex, sexagesimal, dates, ...): refuse rather than guess.
	yamlOdd = regexp.MustCompile(`^([-+]?0[0-9xXbBoO]|[-+]?[0-9][0-9_]*:|[0-9]{4}-[0-9]{2}-|[-+]?[0-9][0-9_,]*$)`)
)

// resolvePlain types a plain scalar as Psych does (YAML 1.1).
func resolvePlain(s string) (any, error) {
	switch s {
	case "", "~", "null", "Null", "NULL":
		return nil, nil
	case "true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON":
		return true, nil
	case "false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF":
		return false, nil
	case ".inf", ".Inf", ".INF", "+.inf":
		return math.Inf(1), nil
	case "-.inf", "-.Inf", "-.INF":
		return math.Inf(-1), nil
	case ".nan", ".NaN", ".NAN":
		return math.NaN(), nil
	}
	if yamlInt.MatchString(s) {
		return number(strings.TrimPrefix(s, "+"))
	}
	if yamlFloat.MatchString(s) {
		return strconv.ParseFloat(s, 64)
	}
	if yamlOdd.MatchString(s) || strings.HasPrefix(s, ":") || strings.HasPrefix(s, "&") ||
		strings.HasPrefix(s, "*") || strings.HasPrefix(s, "!") || strings.HasPrefix(s, "|") || strings.HasPrefix(s, ">") {
		return nil, fmt.Errorf("plain scalar %q is beyond this reader", s)
	}
	return s, nil
}
