package schema

import (
	"reflect"
	"regexp"
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

// ruleFormats maps validator rules to the JSON Schema format of the same
// meaning. "url" and "uri" both become "uri", the format models know.
var ruleFormats = map[string]string{
	"email":        "email",
	"url":          "uri",
	"http_url":     "uri",
	"uri":          "uri",
	"uuid":         "uuid",
	"uuid_rfc4122": "uuid",
	"ipv4":         "ipv4",
	"ip4_addr":     "ipv4",
	"ipv6":         "ipv6",
	"ip6_addr":     "ipv6",
}

// rulePatterns are validator's own regular expressions for these rules,
// written so that ECMA-262 and RE2 read them the same way. Versioned UUIDs
// and hostnames are patterns, not formats: the uuid format takes any
// version, and the hostname format neither RFC 952's leading letter nor
// validator's lack of a total length limit.
var rulePatterns = map[string]string{
	"alpha":            "^[a-zA-Z]+$",
	"alphanum":         "^[a-zA-Z0-9]+$",
	"numeric":          "^[-+]?[0-9]+(?:\\.[0-9]+)?$",
	"number":           "^[0-9]+$",
	"hexadecimal":      "^(0[xX])?[0-9a-fA-F]+$",
	"uuid3":            "^[0-9a-f]{8}-[0-9a-f]{4}-3[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$",
	"uuid4":            "^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$",
	"uuid5":            "^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$",
	"uuid3_rfc4122":    "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-3[0-9a-fA-F]{3}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$",
	"uuid4_rfc4122":    "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-4[0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}$",
	"uuid5_rfc4122":    "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-5[0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}$",
	"hostname":         "^[a-zA-Z]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(\\.[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$",
	"hostname_rfc1123": "^[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(\\.[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$",
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
