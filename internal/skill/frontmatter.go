package skill

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// A SKILL.md opens with YAML front matter between two "---" lines. Hosts
// parse it with a YAML 1.2 library and compare it, field by field, with
// the frontmatter object skills/list sends (SEP-2640 "Frontmatter
// Verification"): any difference and the skill is not loaded. So the
// object vurb sends is what a YAML 1.2 core-schema parser reads, not what
// yaml.v3's YAML 1.1 habits would make of it (yaml.v3 reads 0777 as 511,
// 1_000 as 1000, 2024-01-01 as a time, "<<" as a merge): vurb takes
// yaml.v3's syntax tree and resolves each plain scalar itself, by the
// core schema. Anything a JSON object cannot carry as the host reads it
// (a key that is not a string, .inf, a custom tag) is refused at build.

// Bounds on the front matter, so that a few bytes of aliases cannot
// expand into millions of values.
const (
	maxFrontmatterValues = 10_000
	maxFrontmatterDepth  = 64
)

// splitFrontmatter returns the YAML between a SKILL.md's opening "---"
// line and the next line that is "---" (trailing blanks allowed), as
// hosts find it.
func splitFrontmatter(text string) (string, error) {
	first, rest, ok := cutLine(text)
	if !ok || first != "---" {
		return "", errors.New(`it must begin with YAML front matter: a first line "---", the YAML, then a line "---"`)
	}
	var yamlText strings.Builder
	for rest != "" {
		var line string
		line, rest, _ = cutLine(rest)
		if strings.TrimRight(line, " \t") == "---" {
			return yamlText.String(), nil
		}
		yamlText.WriteString(line)
		yamlText.WriteByte('\n')
	}
	return "", errors.New(`its front matter is not closed: add a line "---" after the YAML`)
}

// cutLine returns text's first line without its "\n" or "\r\n", and the
// rest; ok is false when text has no newline.
func cutLine(text string) (line, rest string, ok bool) {
	line, rest, ok = strings.Cut(text, "\n")
	return strings.TrimSuffix(line, "\r"), rest, ok
}

// parseFrontmatter reads front matter YAML into the JSON object a host
// reads from it.
func parseFrontmatter(src string) (map[string]any, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		return nil, fmt.Errorf("its front matter is not YAML: %w", err)
	}
	budget := maxFrontmatterValues
	v, err := yamlValue(&doc, &budget, 0)
	if err != nil {
		return nil, fmt.Errorf("front matter: %w", err)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("its front matter must be a YAML mapping (name: ..., description: ...)")
	}
	return m, nil
}

// yamlValue is n as a JSON value.
func yamlValue(n *yaml.Node, budget *int, depth int) (any, error) {
	if *budget--; *budget < 0 {
		return nil, fmt.Errorf("more than %d values (aliases expanding?)", maxFrontmatterValues)
	}
	if depth > maxFrontmatterDepth {
		return nil, fmt.Errorf("nested deeper than %d levels", maxFrontmatterDepth)
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return yamlValue(n.Content[0], budget, depth)
	case yaml.AliasNode:
		return yamlValue(n.Alias, budget, depth+1)
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := yamlValue(c, budget, depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case yaml.MappingNode:
		return yamlMapping(n, budget, depth)
	case yaml.ScalarNode:
		return yamlScalar(n)
	}
	return nil, fmt.Errorf("line %d: unsupported YAML node", n.Line)
}

func yamlMapping(n *yaml.Node, budget *int, depth int) (map[string]any, error) {
	out := make(map[string]any, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		key, err := yamlScalar(k)
		s, isString := key.(string)
		if k.Kind != yaml.ScalarNode || err != nil || !isString {
			return nil, fmt.Errorf("line %d: a key must be a string: quote it", k.Line)
		}
		if s == "<<" && k.Style == 0 {
			return nil, fmt.Errorf(`line %d: merge keys ("<<") read differently in YAML 1.1 and 1.2: write the keys out`, k.Line)
		}
		if _, dup := out[s]; dup {
			return nil, fmt.Errorf("line %d: key %q appears twice", k.Line, s)
		}
		v, err := yamlValue(n.Content[i+1], budget, depth+1)
		if err != nil {
			return nil, err
		}
		out[s] = v
	}
	return out, nil
}

// The plain scalars of the YAML 1.2 core schema that are not strings.
var (
	coreInt   = regexp.MustCompile(`^[-+]?[0-9]+$`)
	coreOct   = regexp.MustCompile(`^0o[0-7]+$`)
	coreHex   = regexp.MustCompile(`^0x[0-9a-fA-F]+$`)
	coreFloat = regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)
	coreInf   = regexp.MustCompile(`^([-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN))$`)
)

// yamlScalar is a scalar as a YAML 1.2 core-schema parser reads it: a
// quoted or block scalar is a string; a plain one is resolved by the core
// schema's rules; an explicit tag is honoured when it is one of the core
// schema's.
func yamlScalar(n *yaml.Node) (any, error) {
	tag := ""
	switch {
	case n.Style&yaml.TaggedStyle != 0:
		tag = n.ShortTag()
	case n.Style != 0: // quoted, literal or folded
		return n.Value, nil
	}
	s := n.Value
	switch {
	case tag == "!!str":
		return s, nil
	case tag == "" && (s == "" || s == "~" || s == "null" || s == "Null" || s == "NULL"), tag == "!!null":
		return nil, nil
	case tag == "" && (s == "true" || s == "True" || s == "TRUE"):
		return true, nil
	case tag == "" && (s == "false" || s == "False" || s == "FALSE"):
		return false, nil
	case tag == "" && coreInf.MatchString(s):
		return nil, fmt.Errorf("line %d: %s is not a JSON number: quote it", n.Line, s)
	case tag == "" || tag == "!!int" || tag == "!!float":
		if v, ok, err := coreNumber(s, tag); ok || err != nil {
			if err != nil {
				return nil, fmt.Errorf("line %d: %s: %w", n.Line, s, err)
			}
			return v, nil
		}
		if tag != "" {
			return nil, fmt.Errorf("line %d: %q is not a %s", n.Line, s, tag)
		}
		return s, nil
	}
	return nil, fmt.Errorf("line %d: the tag %s is not one of YAML's core schema: hosts would read the value differently", n.Line, n.Tag)
}

// coreNumber reads s as a core-schema integer or float; ok is false when
// it is neither.
func coreNumber(s, tag string) (v any, ok bool, err error) {
	base, digits := 10, s
	switch {
	case tag != "!!float" && coreInt.MatchString(s):
	case tag != "!!float" && coreOct.MatchString(s):
		base, digits = 8, s[2:]
	case tag != "!!float" && coreHex.MatchString(s):
		base, digits = 16, s[2:]
	case tag != "!!int" && coreFloat.MatchString(s):
		f, perr := strconv.ParseFloat(s, 64)
		if perr != nil || math.IsInf(f, 0) {
			return nil, true, errors.New("out of range: quote it")
		}
		return f, true, nil
	default:
		return nil, false, nil
	}
	i, perr := strconv.ParseInt(digits, base, 64)
	if perr != nil {
		return nil, true, errors.New("an integer out of range: quote it")
	}
	return i, true, nil
}

// The Agent Skills specification's rules on front matter
// (agentskills.io/specification) and SEP-2640's reservation.
const (
	maxSkillNameLen      = 64
	maxSkillDescription  = 1024
	maxSkillCompatLen    = 500
	reservedMetadataKey  = "io.modelcontextprotocol/"
	skillNameRuleMessage = "1 to 64 lowercase letters, digits and hyphens, not starting or ending with a hyphen, no two hyphens in a row"
)

var skillNamePattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// checkSkillName says what is wrong with a skill name, "" when nothing.
func checkSkillName(name string) string {
	if len(name) > maxSkillNameLen || !skillNamePattern.MatchString(name) {
		return fmt.Sprintf("name %q must be %s", name, skillNameRuleMessage)
	}
	return ""
}

// checkFrontmatter holds front matter to the Agent Skills specification
// and to the skill's path, whose last segment must be its name. It
// returns the name and the description.
func checkFrontmatter(fm map[string]any, path string) (name, description string, err error) {
	name, ok := fm["name"].(string)
	if !ok {
		return "", "", errors.New(`its front matter needs "name", a string: the skill's name, the last segment of its path`)
	}
	if why := checkSkillName(name); why != "" {
		return "", "", errors.New(why)
	}
	if last := path[strings.LastIndexByte(path, '/')+1:]; name != last {
		return "", "", fmt.Errorf("name %q must be the last segment of the skill's path %q: rename one of them", name, path)
	}
	description, ok = fm["description"].(string)
	if !ok || strings.TrimSpace(description) == "" {
		return "", "", errors.New(`its front matter needs "description", a non-empty string: what the skill does and when to use it`)
	}
	if n := utf8.RuneCountInString(description); n > maxSkillDescription {
		return "", "", fmt.Errorf("description is %d characters; the Agent Skills specification allows %d", n, maxSkillDescription)
	}
	for _, key := range []string{"license", "allowed-tools", "compatibility"} {
		if v, set := fm[key]; set {
			if _, ok := v.(string); !ok {
				return "", "", fmt.Errorf("%q must be a string", key)
			}
		}
	}
	if c, ok := fm["compatibility"].(string); ok && (c == "" || utf8.RuneCountInString(c) > maxSkillCompatLen) {
		return "", "", fmt.Errorf(`"compatibility" must be 1 to %d characters`, maxSkillCompatLen)
	}
	if err := checkSkillMetadata(fm["metadata"]); err != nil {
		return "", "", err
	}
	return name, description, nil
}

// checkSkillMetadata holds the metadata field to the specification (a
// map of strings to strings) and to SEP-2640's reservation of the
// io.modelcontextprotocol/ prefix for MCP extensions.
func checkSkillMetadata(v any) error {
	if v == nil {
		return nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return errors.New(`"metadata" must be a mapping of strings to strings`)
	}
	for k, val := range m {
		if strings.HasPrefix(k, reservedMetadataKey) {
			return fmt.Errorf(`metadata key %q: the prefix %q is reserved for MCP extensions`, k, reservedMetadataKey)
		}
		if _, ok := val.(string); !ok {
			return fmt.Errorf(`metadata %q must be a string: quote it`, k)
		}
	}
	return nil
}

// checkSkillPath says what is wrong with a skill's path ("git-workflow",
// "acme/billing/refunds"), "" when nothing. The last segment is the name;
// the first is the URI's authority (a host name, so lowercase); the others
// are URI path segments. None may be "." or "..".
func checkSkillPath(path string) string {
	segments := strings.Split(path, "/")
	if len(segments) > 16 {
		return fmt.Sprintf("path %q has more than 16 segments", path)
	}
	if why := checkSkillName(segments[len(segments)-1]); why != "" {
		return fmt.Sprintf("path %q: its last segment is the skill's name, and the %s", path, why)
	}
	for i, s := range segments[:len(segments)-1] {
		ok := s != "" && s != "." && s != ".." && strings.IndexFunc(s, func(r rune) bool {
			upperOK := i > 0 && r >= 'A' && r <= 'Z'
			return !(upperOK || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '.' || r == '_' || r == '~')
		}) < 0
		if !ok {
			where := "segment"
			if i == 0 {
				where = "first segment, the URI's authority,"
			}
			return fmt.Sprintf("path %q: %s %q must be letters, digits, '-', '.', '_' or '~' (lowercase in the first segment), and not . or ..", path, where, s)
		}
	}
	return ""
}
