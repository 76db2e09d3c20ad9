package schema

import (
	"maps"

	"github.com/vurb-go/vurb/internal/schema"
)

// Messages holds every text a model reads when its arguments are refused:
// one field per text, named as the variable below that gives its default
// without the Msg prefix (MsgTooLarge: TooLarge; ReasonEOF, NoteFor and
// DiscriminatorDescription keep their names) and taking the same format
// verbs; Rules (RuleMessages), the text of each validator rule whose
// wording does not depend on the value's kind; and MaxIssues, the most
// problems one Error lists (zero or less: the default). A Decode reads only
// the Messages of its DecodeOptions, so changing a Messages affects only
// the calls given it. Start from DefaultMessages and change what you need;
// do not modify a Messages while a call that uses it runs.
type Messages = schema.Messages

// DefaultMessages returns a fresh Messages holding the current values of the
// package variables below (MsgTooLarge, the Reason texts, RuleMessages,
// MaxIssues...), which start as the built-in texts. The caller owns it,
// Rules included: changing it, or changing a variable afterwards, does not
// affect the other.
func DefaultMessages() *Messages {
	return &Messages{
		TooLarge:    MsgTooLarge,
		TooDeep:     MsgTooDeep,
		InvalidJSON: MsgInvalidJSON,
		NotObject:   MsgNotObject,
		Undecodable: MsgUndecodable,

		ReasonEOF:       ReasonEOF,
		ReasonChar:      ReasonChar,
		ReasonEscape:    ReasonEscape,
		ReasonControl:   ReasonControl,
		ReasonTrailing:  ReasonTrailing,
		ReasonNumber:    ReasonNumber,
		ReasonKeyString: ReasonKeyString,

		UnknownField:   MsgUnknownField,
		UnknownFields:  MsgUnknownFields,
		DidYouMean:     MsgDidYouMean,
		MoreUnknown:    MsgMoreUnknown,
		Accepted:       MsgAccepted,
		NoneAccepted:   MsgNoneAccepted,
		DuplicateField: MsgDuplicateField,
		InvalidUTF8Key: MsgInvalidUTF8Key,

		Required:     MsgRequired,
		NotEmpty:     MsgNotEmpty,
		Null:         MsgNull,
		ExpectedType: MsgExpectedType,
		NotInteger:   MsgNotInteger,
		IntRange:     MsgIntRange,
		FloatRange:   MsgFloatRange,
		InvalidUTF8:  MsgInvalidUTF8,
		DateTime:     MsgDateTime,
		MaxArray:     MsgMaxArray,

		MinNumber: MsgMinNumber,
		MaxNumber: MsgMaxNumber,
		GtNumber:  MsgGtNumber,
		LtNumber:  MsgLtNumber,
		EqNumber:  MsgEqNumber,

		MinString: MsgMinString,
		MaxString: MsgMaxString,
		GtString:  MsgGtString,
		LtString:  MsgLtString,
		LenString: MsgLenString,

		MinItems: MsgMinItems,
		MaxItems: MsgMaxItems,
		GtItems:  MsgGtItems,
		LtItems:  MsgLtItems,
		LenItems: MsgLenItems,

		EqString: MsgEqString,
		Ne:       MsgNe,
		OneOf:    MsgOneOf,
		Rule:     MsgRule,
		Or:       MsgOr,
		Excluded: MsgExcluded,

		RequiredWhen: MsgRequiredWhen,
		ExcludedWhen: MsgExcludedWhen,

		Rules: maps.Clone(RuleMessages),

		MaxIssues:  MaxIssues,
		MoreIssues: MsgMoreIssues,

		DiscriminatorDescription: DiscriminatorDescription,
		DiscriminatorActions:     DiscriminatorActions,
		NoteRequired:             NoteRequired,
		NoteAllBut:               NoteAllBut,
		NoteAlwaysRequired:       NoteAlwaysRequired,
		NoteRequiredFor:          NoteRequiredFor,
		NoteRequiredAndFor:       NoteRequiredAndFor,
		NoteFor:                  NoteFor,
	}
}

// builtin supplies the initial values of the variables below, so that each
// text is written once, in the implementation. Nothing reads it afterwards.
var builtin = schema.DefaultMessages()

// The variables below are the defaults a later DefaultMessages snapshot
// copies: changing one affects the Messages made after the change, never a
// Messages made before it nor a call in flight, and a Decode given nil
// Messages uses the built-in texts, not these. They stay for code written
// before Messages existed; new code sets the fields of a Messages it owns.
// Format verbs are noted; keep them when replacing a text.

// Messages about the arguments as a whole (Messages.TooLarge...). They have
// no path.
var (
	// MsgTooLarge: size in bytes, limit in bytes.
	MsgTooLarge = builtin.TooLarge
	// MsgTooDeep: the depth limit.
	MsgTooDeep = builtin.TooDeep
	// MsgInvalidJSON: a reason (one of the Reason texts), a byte offset.
	MsgInvalidJSON = builtin.InvalidJSON
	// MsgNotObject: the JSON kind received ("array", "string", "number", "boolean", "null").
	MsgNotObject = builtin.NotObject
	// MsgUndecodable: the decoder's own error, for a failure only a custom
	// UnmarshalJSON or UnmarshalText method could detect.
	MsgUndecodable = builtin.Undecodable
)

// Reasons completing MsgInvalidJSON (Messages.ReasonEOF...).
var (
	ReasonEOF       = builtin.ReasonEOF
	ReasonChar      = builtin.ReasonChar // the character, quoted
	ReasonEscape    = builtin.ReasonEscape
	ReasonControl   = builtin.ReasonControl
	ReasonTrailing  = builtin.ReasonTrailing
	ReasonNumber    = builtin.ReasonNumber
	ReasonKeyString = builtin.ReasonKeyString
)

// Messages about the members of an object (Messages.UnknownField...); the
// path is the object's.
var (
	// MsgUnknownField: the quoted name, then MsgDidYouMean or nothing.
	MsgUnknownField = builtin.UnknownField
	// MsgUnknownFields: the comma-separated quoted names, each with its suggestion.
	MsgUnknownFields = builtin.UnknownFields
	// MsgDidYouMean: the closest accepted name.
	MsgDidYouMean = builtin.DidYouMean
	// MsgMoreUnknown: how many more unknown names were left out.
	MsgMoreUnknown = builtin.MoreUnknown
	// MsgAccepted: the accepted names, comma-separated, in declaration order.
	MsgAccepted = builtin.Accepted
	// MsgNoneAccepted ends the message when the object takes no fields at all.
	MsgNoneAccepted = builtin.NoneAccepted
	// MsgDuplicateField: the quoted name. Duplicates are refused because
	// parsers disagree on which one wins.
	MsgDuplicateField = builtin.DuplicateField
	// MsgInvalidUTF8Key is reported when a key is not valid UTF-8.
	MsgInvalidUTF8Key = builtin.InvalidUTF8Key
)

// Messages about one value (Messages.Required...); the path is the value's.
var (
	// MsgRequired is for a required key that was not sent, or sent as null.
	MsgRequired = builtin.Required
	// MsgNotEmpty is for a required value that was sent but is empty ("", [], 0...).
	MsgNotEmpty = builtin.NotEmpty
	// MsgNull is for an optional property sent as null: the schema does
	// not allow null, so the model is told to leave the property out.
	MsgNull = builtin.Null
	// MsgExpectedType: the expected JSON type, the JSON kind received.
	MsgExpectedType = builtin.ExpectedType
	// MsgNotInteger: a number with a fractional part, as sent, where an
	// integer is expected (7.0 and 1e2 are integers and are accepted).
	MsgNotInteger = builtin.NotInteger
	// MsgIntRange: the number as sent, the Go type, its minimum and maximum.
	MsgIntRange = builtin.IntRange
	// MsgFloatRange: the number as sent, the Go type.
	MsgFloatRange  = builtin.FloatRange
	MsgInvalidUTF8 = builtin.InvalidUTF8
	// MsgDateTime is for a time.Time value that is not RFC 3339.
	MsgDateTime = builtin.DateTime
	// MsgMaxArray: the length of a Go array type.
	MsgMaxArray = builtin.MaxArray
)

// Messages for validator rules whose wording depends on what is measured:
// the value of a number (Number), the characters of a string (String), the
// items of a slice, array or map (Items). The verb is the rule's parameter.
var (
	MsgMinNumber = builtin.MinNumber
	MsgMaxNumber = builtin.MaxNumber
	MsgGtNumber  = builtin.GtNumber
	MsgLtNumber  = builtin.LtNumber
	MsgEqNumber  = builtin.EqNumber

	MsgMinString = builtin.MinString
	MsgMaxString = builtin.MaxString
	MsgGtString  = builtin.GtString
	MsgLtString  = builtin.LtString
	MsgLenString = builtin.LenString

	MsgMinItems = builtin.MinItems
	MsgMaxItems = builtin.MaxItems
	MsgGtItems  = builtin.GtItems
	MsgLtItems  = builtin.LtItems
	MsgLenItems = builtin.LenItems

	// MsgEqString is eq on a string: the required value, quoted.
	MsgEqString = builtin.EqString
	// MsgNe is ne on any kind.
	MsgNe = builtin.Ne
	// MsgOneOf: the allowed values joined with ", ".
	MsgOneOf = builtin.OneOf
	// MsgRule is the fallback for a rule without its own text: the rule as written.
	MsgRule = builtin.Rule
	// MsgOr joins the texts of the alternatives of an "a|b" rule.
	MsgOr = builtin.Or
)

// MsgExcluded is for the excluded_* rules: the field must not be sent here.
var MsgExcluded = builtin.Excluded

// Messages for a failed conditional rule (required_if, excluded_with...):
// the verb receives the condition as the property's description states it,
// naming the field that triggered it (`when type is "card"`).
var (
	MsgRequiredWhen = builtin.RequiredWhen
	MsgExcludedWhen = builtin.ExcludedWhen
)

// RuleMessages is the default of Messages.Rules: the text of each validator
// rule whose wording does not depend on the value's kind. A "%s" in a text
// receives the rule's parameter. DefaultMessages copies it; the texts of
// custom rules belong with the rule (Validator.RegisterRule).
var RuleMessages = builtin.Rules

// MaxIssues is the default of Messages.MaxIssues: the most problems one
// Error lists; past it, a last issue says how many more there were
// (MsgMoreIssues). A model fixes the first ones and calls again; a hostile
// input cannot make the answer huge.
var MaxIssues = builtin.MaxIssues

// MsgMoreIssues ends an Error that hit MaxIssues: the count left out.
var MsgMoreIssues = builtin.MoreIssues

// DiscriminatorDescription describes a grouped tool's discriminator
// property. It is empty: the property's name and enum say what it is.
var DiscriminatorDescription = builtin.DiscriminatorDescription

// DiscriminatorActions follows DiscriminatorDescription when actions have
// descriptions: the "key: description" items joined with "; ".
var DiscriminatorActions = builtin.DiscriminatorActions

// NoteRequired marks, in a grouped property's per-action lines, the actions
// that require the property: "get (required), list: Project ID".
var NoteRequired = builtin.NoteRequired

// NoteAllBut names, in a grouped property's only per-action line, the
// actions that take it as all those of the tool but the others, when that
// is shorter: "all but list, create (required): Project ID". The verb
// receives the comma-separated keys of the others; empty names the actions
// always.
var NoteAllBut = builtin.NoteAllBut

// Tier notes appended to a property's description in a grouped tool's
// schema, saying which actions need it, instead of per-action lines when
// the actions declare the property alike. The verbs receive
// comma-separated action keys. They are empty, and an empty note is not
// written: per-action lines say who takes and requires each property, and
// a required field of the common struct is in the schema's own "required".
// Set them to get the notes back ("Required for: %s", "Required for: %s.
// For: %s", "For: %s", "(always required)").
var (
	NoteAlwaysRequired = builtin.NoteAlwaysRequired
	NoteRequiredFor    = builtin.NoteRequiredFor
	NoteRequiredAndFor = builtin.NoteRequiredAndFor
	NoteFor            = builtin.NoteFor
)
