package schema

// The texts a model reads when its arguments are refused. They are variables
// so that tests and callers can assert them, and an application can reword or
// translate them before it serves its first call. Format verbs are noted;
// keep them when replacing a text.

// Messages about the arguments as a whole. They have no path.
var (
	// MsgTooLarge: size in bytes, limit in bytes.
	MsgTooLarge = "arguments are too large: %d bytes, the limit is %d"
	// MsgTooDeep: the depth limit.
	MsgTooDeep = "arguments are nested too deeply: more than %d levels"
	// MsgInvalidJSON: a reason (one of the Reason texts), a byte offset.
	MsgInvalidJSON = "arguments are not valid JSON: %s at offset %d"
	// MsgNotObject: the JSON kind received ("array", "string", "number", "boolean", "null").
	MsgNotObject = "arguments must be a JSON object, got %s"
	// MsgUndecodable: the decoder's own error, for a failure only a custom
	// UnmarshalJSON or UnmarshalText method could detect.
	MsgUndecodable = "arguments could not be decoded: %s"
)

// Reasons completing MsgInvalidJSON.
var (
	ReasonEOF       = "unexpected end of input"
	ReasonChar      = "invalid character %s" // the character, quoted
	ReasonEscape    = "invalid escape sequence in a string"
	ReasonControl   = "control character in a string (escape it)"
	ReasonTrailing  = "unexpected data after the top-level value"
	ReasonNumber    = "malformed number"
	ReasonKeyString = "object keys must be strings"
)

// Messages about the members of an object; the path is the object's.
var (
	// MsgUnknownField: the quoted name, then MsgDidYouMean or nothing.
	MsgUnknownField = "unknown field %s%s"
	// MsgUnknownFields: the comma-separated quoted names, each with its suggestion.
	MsgUnknownFields = "unknown fields %s"
	// MsgDidYouMean: the closest accepted name.
	MsgDidYouMean = " (did you mean %q?)"
	// MsgMoreUnknown: how many more unknown names were left out.
	MsgMoreUnknown = " and %d more"
	// MsgAccepted: the accepted names, comma-separated, in declaration order.
	MsgAccepted = "; accepted: %s"
	// MsgNoneAccepted ends the message when the object takes no fields at all.
	MsgNoneAccepted = "; no fields are accepted"
	// MsgDuplicateField: the quoted name. Duplicates are refused because
	// parsers disagree on which one wins.
	MsgDuplicateField = "duplicate field %s"
	// MsgInvalidUTF8Key is reported when a key is not valid UTF-8.
	MsgInvalidUTF8Key = "invalid UTF-8 in a field name"
)

// Messages about one value; the path is the value's.
var (
	// MsgRequired is for a required key that was not sent, or sent as null.
	MsgRequired = "is required"
	// MsgNotEmpty is for a required value that was sent but is empty ("", [], 0...).
	MsgNotEmpty = "must not be empty"
	// MsgExpectedType: the expected JSON type, the JSON kind received.
	MsgExpectedType = "expected %s, got %s"
	// MsgIntRange: the number as sent, the Go type, its minimum and maximum.
	MsgIntRange = "%s is out of range for %s (%s to %s)"
	// MsgFloatRange: the number as sent, the Go type.
	MsgFloatRange  = "%s is out of range for %s"
	MsgInvalidUTF8 = "invalid UTF-8"
	// MsgDateTime is for a time.Time value that is not RFC 3339.
	MsgDateTime = "must be a date-time in RFC 3339 format, like 2024-01-02T15:04:05Z"
	// MsgMaxArray: the length of a Go array type.
	MsgMaxArray = "must contain at most %d items"
)

// Messages for validator rules whose wording depends on what is measured:
// the value of a number (Number), the characters of a string (String), the
// items of a slice, array or map (Items). The verb is the rule's parameter.
var (
	MsgMinNumber = "must be at least %s"
	MsgMaxNumber = "must be at most %s"
	MsgGtNumber  = "must be greater than %s"
	MsgLtNumber  = "must be less than %s"
	MsgEqNumber  = "must be %s"

	MsgMinString = "must be at least %s characters"
	MsgMaxString = "must be at most %s characters"
	MsgGtString  = "must be more than %s characters"
	MsgLtString  = "must be fewer than %s characters"
	MsgLenString = "must be exactly %s characters"

	MsgMinItems = "must contain at least %s item(s)"
	MsgMaxItems = "must contain at most %s item(s)"
	MsgGtItems  = "must contain more than %s item(s)"
	MsgLtItems  = "must contain fewer than %s item(s)"
	MsgLenItems = "must contain exactly %s item(s)"

	// MsgEqString is eq on a string: the required value, quoted.
	MsgEqString = "must be %q"
	// MsgNe is ne on any kind.
	MsgNe = "must not be %s"
	// MsgOneOf: the allowed values joined with ", ".
	MsgOneOf = "must be one of: %s"
	// MsgRule is the fallback for a rule without its own text: the rule as written.
	MsgRule = "must satisfy the %q rule"
	// MsgOr joins the texts of the alternatives of an "a|b" rule.
	MsgOr = " or "
)

// RuleMessages holds the text of each validator rule whose wording does not
// depend on the value's kind. A "%s" in a text receives the rule's parameter.
// Add entries for custom rules before serving.
var RuleMessages = map[string]string{
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
}

// MsgExcluded is for the excluded_* rules: the field must not be sent here.
var MsgExcluded = "must be absent here"

// DiscriminatorDescription describes a grouped tool's discriminator property.
var DiscriminatorDescription = "The operation to perform"

// DiscriminatorActions follows DiscriminatorDescription when members have
// descriptions: the "key: description" items joined with "; ".
var DiscriminatorActions = ". %s"

// Tier notes appended by Merge to a property's description. The verbs
// receive comma-separated action keys.
var (
	NoteAlwaysRequired = "(always required)"
	NoteRequiredFor    = "Required for: %s"
	NoteRequiredAndFor = "Required for: %s. For: %s"
	NoteFor            = "For: %s"
)

// MaxIssues bounds the problems one Error lists; past it, a last issue
// says how many more there were (MsgMoreIssues). A model fixes the first
// ones and calls again; a hostile input cannot make the answer huge.
var MaxIssues = 20

// MsgMoreIssues ends an Error that hit MaxIssues: the count left out.
var MsgMoreIssues = "and %d more problems"
