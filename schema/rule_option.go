package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// RuleOption says what a custom rule adds to the schema of the fields it
// constrains, for Validator.RegisterRule. The zero RuleOption adds nothing.
type RuleOption struct {
	apply func(*ruleSchema) error
}

// ruleSchema is what the options of one custom rule add.
type ruleSchema struct {
	pattern, format string
	enum            []any
	keywords        *node
	note            string
}

func (rs *ruleSchema) empty() bool {
	return rs.pattern == "" && rs.format == "" && rs.enum == nil && rs.keywords == nil && rs.note == ""
}

// RulePattern states the rule as a "pattern" keyword: an ECMA-262 regular
// expression that accepts exactly the strings the rule accepts (RE2 syntax
// reads the same for the common subset).
func RulePattern(pattern string) RuleOption {
	return RuleOption{func(rs *ruleSchema) error {
		if _, err := regexp.Compile(pattern); err != nil {
			return fmt.Errorf("RulePattern: %w", err)
		}
		rs.pattern = pattern
		return nil
	}}
}

// RuleFormat states the rule as a "format" keyword ("email", "date",
// "ipv4"...); the format must accept exactly what the rule accepts.
func RuleFormat(format string) RuleOption {
	return RuleOption{func(rs *ruleSchema) error {
		if format == "" {
			return errors.New("RuleFormat: empty format")
		}
		rs.format = format
		return nil
	}}
}

// RuleEnum states the rule as an "enum" keyword: the rule accepts exactly
// these values (strings, numbers or booleans).
func RuleEnum(values ...any) RuleOption {
	return RuleOption{func(rs *ruleSchema) error {
		if len(values) == 0 {
			return errors.New("RuleEnum: no values")
		}
		raw, err := json.Marshal(values)
		if err != nil {
			return fmt.Errorf("RuleEnum: %w", err)
		}
		v, err := parseNode(raw)
		if err != nil {
			return fmt.Errorf("RuleEnum: %w", err)
		}
		rs.enum = v.([]any)
		return nil
	}}
}

// RuleKeywords states the rule as the keywords of doc, a JSON object
// merged into the field's schema ({"minLength":3,"pattern":"^[A-Z]"}); a
// keyword the field's schema already has is added through allOf, so both
// hold.
func RuleKeywords(doc json.RawMessage) RuleOption {
	return RuleOption{func(rs *ruleSchema) error {
		v, err := parseNode(doc)
		if err != nil {
			return fmt.Errorf("RuleKeywords: %w", err)
		}
		n, ok := v.(*node)
		if !ok || n.len() == 0 {
			return errors.New("RuleKeywords: want a non-empty JSON object")
		}
		rs.keywords = n
		return nil
	}}
}

// RuleNote is the sentence the rule adds to a field's description (a "%s"
// receives the rule's parameter). Without keywords, a rule is described by
// its note, or else by its message; with keywords, only a note is added.
func RuleNote(note string) RuleOption {
	return RuleOption{func(rs *ruleSchema) error {
		rs.note = note
		return nil
	}}
}

// apply writes the rule's keywords into n and reports whether it had any.
func (rs *ruleSchema) apply(n *node, _ string) bool {
	stated := false
	if rs.pattern != "" {
		addConstraint(n, "pattern", rs.pattern)
		stated = true
	}
	if rs.format != "" {
		addConstraint(n, "format", rs.format)
		stated = true
	}
	if rs.enum != nil {
		addConstraint(n, "enum", cloneValue(rs.enum))
		stated = true
	}
	if rs.keywords != nil {
		for i, k := range rs.keywords.keys {
			addConstraint(n, k, cloneValue(rs.keywords.vals[i]))
		}
		stated = true
	}
	return stated
}

// noteFor is the note with the rule's parameter in place of "%s".
func (rs *ruleSchema) noteFor(param string) string {
	if strings.Contains(rs.note, "%s") {
		return fmt.Sprintf(rs.note, param)
	}
	return rs.note
}
