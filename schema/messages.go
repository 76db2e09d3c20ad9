package schema

import "maps"

// DefaultMaxIssues is the most problems one Error lists when
// Messages.MaxIssues is zero or less; past it, a last issue says how many
// more there were.
const DefaultMaxIssues = 20

// Messages holds every text a model reads when its arguments are refused,
// and the texts Merge writes into a grouped tool's schema. A decode reads
// the Messages its DecodeOptions name (the built-in texts when nil) and
// nothing else, so two applications in one process can word their errors
// differently, and changing a Messages value affects only the calls given
// that value.
//
// Start from DefaultMessages and change what you need: a field left empty
// is written as empty. Format verbs are noted; keep them when rewording.
// A Messages must not be modified while a call that uses it runs.
type Messages struct {
	// About the arguments as a whole; these issues have no path.

	TooLarge    string // size in bytes, limit in bytes
	TooDeep     string // the depth limit
	InvalidJSON string // a reason (one of the Reason texts), a byte offset
	NotObject   string // the JSON kind received: "array", "string", "number", "boolean" or "null"
	// Undecodable: the decoder's own error, for a failure only a custom
	// UnmarshalJSON or UnmarshalText method could detect.
	Undecodable string

	// Reasons completing InvalidJSON.

	ReasonEOF       string
	ReasonChar      string // the character, quoted
	ReasonEscape    string
	ReasonControl   string
	ReasonTrailing  string
	ReasonNumber    string
	ReasonKeyString string

	// About the members of an object; the path is the object's.

	UnknownField  string // the quoted name, then DidYouMean or nothing
	UnknownFields string // the comma-separated quoted names, each with its suggestion
	DidYouMean    string // the closest accepted name
	MoreUnknown   string // how many more unknown names were left out
	Accepted      string // the accepted names, comma-separated, in declaration order
	NoneAccepted  string // ends the message when the object takes no fields at all
	// DuplicateField: the quoted name. Duplicates are refused because
	// parsers disagree on which one wins.
	DuplicateField string
	InvalidUTF8Key string // a key that is not valid UTF-8

	// About one value; the path is the value's.

	Required string // a required key that was not sent, or sent as null
	NotEmpty string // a required value that was sent but is empty ("", [], 0...)
	// Null: an optional property sent as null. null is refused rather
	// than read as "absent", so that the schema, which does not allow
	// it, tells the truth and a model never believes null clears a value.
	Null         string
	ExpectedType string // the expected JSON type, the JSON kind received
	NotInteger   string // a number with a fractional part where an integer is expected: the number as sent
	IntRange     string // the number as sent, the Go type, its minimum and maximum
	FloatRange   string // the number as sent, the Go type
	InvalidUTF8  string
	DateTime     string // a time.Time value that is not RFC 3339
	MaxArray     string // the length of a Go array type

	// Validator rules whose wording depends on what is measured: the value
	// of a number (Number), the characters of a string (String), the items
	// of a slice, array or map (Items). The verb is the rule's parameter.

	MinNumber, MaxNumber, GtNumber, LtNumber, EqNumber  string
	MinString, MaxString, GtString, LtString, LenString string
	MinItems, MaxItems, GtItems, LtItems, LenItems      string

	EqString string // eq on a string: the required value, quoted
	Ne       string // ne on any kind
	OneOf    string // the allowed values joined with ", "
	Rule     string // the fallback for a rule without its own text: the rule as written
	Or       string // joins the texts of the alternatives of an "a|b" rule
	Excluded string // the excluded_* rules: the field must not be sent here
	// RequiredWhen and ExcludedWhen word a failed conditional rule
	// (required_if, excluded_with...): the verb receives the condition as
	// the schema's description states it, naming the other field, such as
	// `when type is "card"`.
	RequiredWhen, ExcludedWhen string

	// Rules holds the text of each validator rule whose wording does not
	// depend on the value's kind; a "%s" in a text receives the rule's
	// parameter. An entry here wins over the message a Validator's
	// RegisterRule recorded, so an application can reword custom rules too.
	Rules map[string]string

	// MaxIssues bounds the problems one Error lists; past it, a last issue
	// says how many more there were (MoreIssues). A model fixes the first
	// ones and calls again; a hostile input cannot make the answer huge.
	// Zero or less means DefaultMaxIssues.
	MaxIssues  int
	MoreIssues string // the count left out

	// Texts Merge writes into a grouped tool's schema, at build time.

	DiscriminatorDescription string // describes the discriminator property
	// DiscriminatorActions follows DiscriminatorDescription when members
	// have descriptions: the "key: description" items joined with "; ".
	DiscriminatorActions string
	// NoteRequired marks, in a grouped property's per-action lines, the
	// actions that require it: "get (required), list: Project ID".
	NoteRequired string
	// NoteAllBut names, in a property's only per-action line, the actions
	// that take it as all those of the tool but the others, when that is
	// shorter than naming them: "all but list, create (required): Project
	// ID". The verb receives the comma-separated keys of the others. Empty:
	// the actions are always named.
	NoteAllBut string
	// Tier notes appended to a property's description instead of per-action
	// lines when the actions declare it alike, if set. The verbs receive
	// comma-separated action keys. An empty note is not written; the
	// built-in texts are all empty.
	NoteAlwaysRequired, NoteRequiredFor, NoteRequiredAndFor, NoteFor string
}

// DefaultMessages returns a fresh copy of the built-in texts, Rules
// included: the caller may change it freely.
func DefaultMessages() *Messages {
	m := defaults
	m.Rules = maps.Clone(defaults.Rules)
	return &m
}

// builtin is what a nil DecodeOptions.Messages means. It is never written
// and nothing outside the package can reach it.
var builtin = DefaultMessages()

// messagesOr returns m, or the built-in texts when m is nil.
func messagesOr(m *Messages) *Messages {
	if m == nil {
		return builtin
	}
	return m
}

// maxIssues is m.MaxIssues, or the default when unset.
func (m *Messages) maxIssues() int {
	if m.MaxIssues <= 0 {
		return DefaultMaxIssues
	}
	return m.MaxIssues
}

// defaults is the one place the built-in texts are written. It is only
// ever copied (DefaultMessages clones its Rules), never handed out.
var defaults = Messages{
	TooLarge:    "arguments are too large: %d bytes, the limit is %d",
	TooDeep:     "arguments are nested too deeply: more than %d levels",
	InvalidJSON: "arguments are not valid JSON: %s at offset %d",
	NotObject:   "arguments must be a JSON object, got %s",
	Undecodable: "arguments could not be decoded: %s",

	ReasonEOF:       "unexpected end of input",
	ReasonChar:      "invalid character %s",
	ReasonEscape:    "invalid escape sequence in a string",
	ReasonControl:   "control character in a string (escape it)",
	ReasonTrailing:  "unexpected data after the top-level value",
	ReasonNumber:    "malformed number",
	ReasonKeyString: "object keys must be strings",

	UnknownField:   "unknown field %s%s",
	UnknownFields:  "unknown fields %s",
	DidYouMean:     " (did you mean %q?)",
	MoreUnknown:    " and %d more",
	Accepted:       "; accepted: %s",
	NoneAccepted:   "; no fields are accepted",
	DuplicateField: "duplicate field %s",
	InvalidUTF8Key: "invalid UTF-8 in a field name",

	Required:     "is required",
	NotEmpty:     "must not be empty",
	Null:         "must not be null: leave the property out instead",
	ExpectedType: "expected %s, got %s",
	NotInteger:   "must be an integer, got %s",
	IntRange:     "%s is out of range for %s (%s to %s)",
	FloatRange:   "%s is out of range for %s",
	InvalidUTF8:  "invalid UTF-8",
	DateTime:     "must be a date-time in RFC 3339 format, like 2024-01-02T15:04:05Z",
	MaxArray:     "must contain at most %d items",

	MinNumber: "must be at least %s",
	MaxNumber: "must be at most %s",
	GtNumber:  "must be greater than %s",
	LtNumber:  "must be less than %s",
	EqNumber:  "must be %s",

	MinString: "must be at least %s characters",
	MaxString: "must be at most %s characters",
	GtString:  "must be more than %s characters",
	LtString:  "must be fewer than %s characters",
	LenString: "must be exactly %s characters",

	MinItems: "must contain at least %s item(s)",
	MaxItems: "must contain at most %s item(s)",
	GtItems:  "must contain more than %s item(s)",
	LtItems:  "must contain fewer than %s item(s)",
	LenItems: "must contain exactly %s item(s)",

	EqString: "must be %q",
	Ne:       "must not be %s",
	OneOf:    "must be one of: %s",
	Rule:     "must satisfy the %q rule",
	Or:       " or ",
	Excluded: "must be absent here",

	RequiredWhen: "is required %s",
	ExcludedWhen: "must be left out %s",

	Rules: map[string]string{
		"email":            "must be a valid email address",
		"url":              "must be a valid URL",
		"http_url":         "must be a valid http or https URL",
		"uri":              "must be a valid URI",
		"uuid":             "must be a valid UUID",
		"uuid3":            "must be a valid version 3 UUID",
		"uuid4":            "must be a valid version 4 UUID",
		"uuid5":            "must be a valid version 5 UUID",
		"uuid_rfc4122":     "must be a valid UUID",
		"uuid4_rfc4122":    "must be a valid version 4 UUID",
		"datetime":         "must be a date/time formatted like %s",
		"ip":               "must be a valid IP address",
		"ip_addr":          "must be a valid IP address",
		"ipv4":             "must be a valid IPv4 address",
		"ip4_addr":         "must be a valid IPv4 address",
		"ipv6":             "must be a valid IPv6 address",
		"ip6_addr":         "must be a valid IPv6 address",
		"cidr":             "must be a valid CIDR notation address",
		"hostname":         "must be a valid hostname",
		"hostname_rfc1123": "must be a valid hostname",
		"fqdn":             "must be a fully qualified domain name",
		"alpha":            "must contain only ASCII letters",
		"alphanum":         "must contain only ASCII letters and digits",
		"alphaunicode":     "must contain only letters",
		"numeric":          "must be a numeric string",
		"number":           "must contain only digits",
		"hexadecimal":      "must be a hexadecimal string",
		"lowercase":        "must be lowercase",
		"uppercase":        "must be uppercase",
		"ascii":            "must contain only ASCII characters",
		"printascii":       "must contain only printable ASCII characters",
		"contains":         "must contain %q",
		"containsany":      "must contain at least one of the characters %q",
		"excludes":         "must not contain %q",
		"excludesall":      "must not contain any of the characters %q",
		"startswith":       "must start with %q",
		"endswith":         "must end with %q",
		"unique":           "must not contain duplicates",
		"json":             "must be valid JSON",
		"e164":             "must be a phone number in E.164 format, like +14155552671",
		"boolean":          "must be a boolean string (true or false)",
		"base64":           "must be valid base64",
		"semver":           "must be a semantic version, like 1.2.3",
		"jwt":              "must be a JSON Web Token",
		"latitude":         "must be a latitude between -90 and 90",
		"longitude":        "must be a longitude between -180 and 180",
		"iso3166_1_alpha2": "must be an ISO 3166-1 alpha-2 country code",
		"timezone":         "must be an IANA time zone name",
	},

	MaxIssues:  DefaultMaxIssues,
	MoreIssues: "and %d more problems",

	// The discriminator's name and enum say what it is: a description would
	// say it again.
	DiscriminatorDescription: "",
	DiscriminatorActions:     ". %s",
	NoteRequired:             "(required)",
	NoteAllBut:               "all but %s",
	// Per-action lines say who takes and requires a property, and a
	// required field of common is in the root's "required": tier notes
	// would say it twice.
	NoteAlwaysRequired: "",
	NoteRequiredFor:    "",
	NoteRequiredAndFor: "",
	NoteFor:            "",
}
