package schema

import (
	"encoding/json"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// rule is one validator rule, such as min=3 or email.
type rule struct {
	tag   string
	param string
	or    bool // an alternation such as "email|url": validated, but not mirrored in the schema
}

// ruleLevel holds the rules that apply at one level of a field: the field
// itself, or its elements after one or more "dive".
type ruleLevel struct {
	rules []rule
	keys  []rule // map-key rules (keys ... endkeys) right after the dive that opened this level
}

// ruleSet is a parsed validate tag: levels[0] is the field, levels[i] the
// elements after i dives.
type ruleSet struct {
	raw    string
	levels []ruleLevel
}

// parseRules reads a validate tag the way go-playground/validator splits it:
// on commas, with 0x2C standing for a literal comma and 0x7C for a literal pipe.
func parseRules(tag string) ruleSet {
	rs := ruleSet{raw: tag, levels: []ruleLevel{{}}}
	if tag == "" || tag == "-" {
		return rs
	}
	inKeys := false
	for _, part := range strings.Split(tag, ",") {
		switch part {
		case "dive":
			rs.levels = append(rs.levels, ruleLevel{})
			continue
		case "keys":
			inKeys = true
			continue
		case "endkeys":
			inKeys = false
			continue
		case "":
			continue
		}
		name, param, _ := strings.Cut(part, "=")
		r := rule{tag: name, param: unescapeParam(param), or: strings.Contains(part, "|")}
		if r.or {
			r.tag = part
		}
		lv := &rs.levels[len(rs.levels)-1]
		if inKeys {
			lv.keys = append(lv.keys, r)
		} else {
			lv.rules = append(lv.rules, r)
		}
	}
	return rs
}

func unescapeParam(p string) string {
	p = strings.ReplaceAll(p, "0x2C", ",")
	return strings.ReplaceAll(p, "0x7C", "|")
}

// has reports whether the field itself (not its elements) carries tag.
func (rs ruleSet) has(tag string) bool {
	for _, r := range rs.levels[0].rules {
		if r.tag == tag {
			return true
		}
	}
	return false
}

// oneOfValues splits a oneof parameter like validator does: on spaces, with
// single quotes grouping a value that contains spaces.
func oneOfValues(param string) []string {
	var out []string
	for _, m := range oneOfSplit.FindAllString(param, -1) {
		out = append(out, strings.ReplaceAll(m, "'", ""))
	}
	return out
}

var oneOfSplit = regexp.MustCompile(`'[^']*'|\S+`)

// applyRules mirrors a field's validate rules into its schema n, level by
// level: the field first, then "items" or "additionalProperties" for each dive.
func applyRules(n *node, t reflect.Type, levels []ruleLevel) {
	t = deref(t)
	if len(levels) == 0 || n.has("$ref") {
		return
	}
	applyLevel(n, t, levels[0].rules)
	if len(levels) < 2 {
		return
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		if items := n.obj("items"); items != nil {
			applyRules(items, t.Elem(), levels[1:])
		}
	case reflect.Map:
		if ap := n.obj("additionalProperties"); ap != nil {
			applyRules(ap, t.Elem(), levels[1:])
		}
		if keys := levels[1].keys; len(keys) > 0 && t.Key().Kind() == reflect.String {
			pn := &node{}
			pn.set("type", "string")
			applyLevel(pn, t.Key(), keys)
			pn.sortKeywords()
			n.set("propertyNames", pn)
		}
	}
}

func deref(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

// schemaKind is the JSON type a schema's constraints apply to: what "min"
// means depends on it (minimum, minLength, minItems or minProperties).
func schemaKind(n *node) string {
	return n.str("type")
}

// bound keywords per JSON type: lower, upper.
var boundKeywords = map[string][2]string{
	"integer": {"minimum", "maximum"},
	"number":  {"minimum", "maximum"},
	"string":  {"minLength", "maxLength"},
	"array":   {"minItems", "maxItems"},
	"object":  {"minProperties", "maxProperties"},
}

func applyLevel(n *node, t reflect.Type, rules []rule) {
	kind := schemaKind(n)
	if t == timeType {
		kind = "" // validator compares times with "now"; nothing to mirror
	}
	kw, bounded := boundKeywords[kind]
	numeric := kind == "integer" || kind == "number"
	for _, r := range rules {
		if r.or {
			continue
		}
		switch r.tag {
		case "min", "gte", "max", "lte", "gt", "lt", "len":
			if !bounded || !validNumber([]byte(r.param)) {
				continue
			}
			lower := r.tag == "min" || r.tag == "gte" || r.tag == "gt" || r.tag == "len"
			upper := r.tag == "max" || r.tag == "lte" || r.tag == "lt" || r.tag == "len"
			exclusive := r.tag == "gt" || r.tag == "lt"
			if numeric {
				num := json.Number(r.param)
				switch {
				case exclusive && lower:
					n.set("exclusiveMinimum", num)
				case exclusive:
					n.set("exclusiveMaximum", num)
				default:
					if lower {
						n.set("minimum", num)
					}
					if upper {
						n.set("maximum", num)
					}
				}
				continue
			}
			c, err := strconv.Atoi(r.param)
			if err != nil {
				continue
			}
			if exclusive && lower {
				c++
			} else if exclusive {
				c--
			}
			if c < 0 {
				continue
			}
			if lower {
				n.set(kw[0], json.Number(strconv.Itoa(c)))
			}
			if upper {
				n.set(kw[1], json.Number(strconv.Itoa(c)))
			}
		case "eq":
			if numeric && validNumber([]byte(r.param)) {
				n.set("const", json.Number(r.param))
			} else if kind == "string" {
				n.set("const", r.param)
			}
		case "oneof":
			var enum []any
			for _, v := range oneOfValues(r.param) {
				switch {
				case numeric && validNumber([]byte(v)):
					enum = append(enum, json.Number(v))
				case kind == "string":
					enum = append(enum, v)
				}
			}
			if len(enum) > 0 {
				n.set("enum", enum)
			}
		case "unique":
			if kind == "array" {
				n.set("uniqueItems", true)
			}
		default:
			if kind != "string" {
				continue
			}
			if f, ok := ruleFormats[r.tag]; ok {
				n.set("format", f)
				continue
			}
			switch r.tag {
			case "datetime":
				if f := datetimeFormat(r.param); f != "" {
					n.set("format", f)
				}
			case "ip", "ip_addr":
				// JSON Schema has no format for "IPv4 or IPv6"; anyOf of the
				// two exact formats says precisely what validator's ip accepts.
				v4, v6 := &node{}, &node{}
				v4.set("format", "ipv4")
				v6.set("format", "ipv6")
				n.set("anyOf", []any{v4, v6})
			case "startswith":
				setPattern(n, "^"+regexp.QuoteMeta(r.param))
			case "endswith":
				setPattern(n, regexp.QuoteMeta(r.param)+"$")
			case "contains":
				setPattern(n, regexp.QuoteMeta(r.param))
			default:
				if p, ok := rulePatterns[r.tag]; ok {
					setPattern(n, p)
				}
			}
		}
	}
}

// setPattern keeps the first pattern: a schema holds only one, and a second
// would need allOf for a constraint the validator enforces anyway.
func setPattern(n *node, p string) {
	if !n.has("pattern") {
		n.set("pattern", p)
	}
}

// ruleFormats maps validator rules to the JSON Schema format of the same
// meaning. "url" and "uri" both become "uri", the format models know.
var ruleFormats = map[string]string{
	"email":            "email",
	"url":              "uri",
	"http_url":         "uri",
	"uri":              "uri",
	"uuid":             "uuid",
	"uuid3":            "uuid",
	"uuid4":            "uuid",
	"uuid5":            "uuid",
	"uuid_rfc4122":     "uuid",
	"uuid3_rfc4122":    "uuid",
	"uuid4_rfc4122":    "uuid",
	"uuid5_rfc4122":    "uuid",
	"ipv4":             "ipv4",
	"ip4_addr":         "ipv4",
	"ipv6":             "ipv6",
	"ip6_addr":         "ipv6",
	"hostname":         "hostname",
	"hostname_rfc1123": "hostname",
}

// rulePatterns are validator's own regular expressions for these rules,
// written so that ECMA-262 and RE2 read them the same way.
var rulePatterns = map[string]string{
	"alpha":       "^[a-zA-Z]+$",
	"alphanum":    "^[a-zA-Z0-9]+$",
	"numeric":     "^[-+]?[0-9]+(?:\\.[0-9]+)?$",
	"number":      "^[0-9]+$",
	"hexadecimal": "^(0[xX])?[0-9a-fA-F]+$",
}

// datetimeFormat maps a validator datetime layout to a JSON Schema format,
// or "" when no format has that exact meaning.
func datetimeFormat(layout string) string {
	switch layout {
	case time.RFC3339, time.RFC3339Nano, "2006-01-02T15:04:05Z":
		return "date-time"
	case time.DateOnly:
		return "date"
	}
	return ""
}

var timeType = reflect.TypeFor[time.Time]()
