package schema

import "github.com/vurb-go/vurb/internal/schema"

// Messages holds every text a model reads when its arguments are refused,
// and the notes vurb writes into a grouped tool's schema. A Decode reads
// only the Messages its DecodeOptions name (the built-in texts when nil),
// so two applications in one process word their errors apart, and
// changing a Messages affects only the calls given it; do not modify one
// while a call that uses it runs. Start from DefaultMessages and change
// what you need: a field left empty is written as empty.
//
// Its fields, by what they word, with the format verbs each receives (keep
// them when rewording):
//
//   - the arguments as a whole, with no path: TooLarge (the size, the
//     limit, in bytes), TooDeep (the depth limit), InvalidJSON (a reason,
//     a byte offset), NotObject (the JSON kind received: "array",
//     "string", "number", "boolean" or "null"), Undecodable (the error of
//     a custom UnmarshalJSON or UnmarshalText method); the reasons that
//     complete InvalidJSON are ReasonEOF, ReasonChar (the character,
//     quoted), ReasonEscape, ReasonControl, ReasonTrailing, ReasonNumber
//     and ReasonKeyString;
//   - the members of an object, at the object's path: UnknownField (the
//     quoted name, then DidYouMean or nothing), UnknownFields (the quoted
//     names, comma-separated, each with its suggestion), DidYouMean (the
//     closest accepted name), MoreUnknown (how many more unknown names
//     were left out), Accepted (the accepted names, comma-separated, in
//     declaration order), NoneAccepted (ends the message when the object
//     takes no fields at all), DuplicateField (the quoted name),
//     InvalidUTF8Key;
//   - one value, at its path: Required (a required key not sent, or sent
//     as null), NotEmpty (a required value sent empty: "", [], 0...), Null
//     (an optional property sent as null, which the schema does not
//     allow), ExpectedType (the expected JSON type, the JSON kind
//     received), NotInteger (the number as sent), IntRange (the number as
//     sent, the Go type, its minimum and maximum), FloatRange (the number
//     as sent, the Go type), InvalidUTF8, DateTime (a time.Time value that
//     is not RFC 3339), MaxArray (the length of a Go array type);
//   - validator rules, each receiving the rule's parameter: MinNumber,
//     MaxNumber, GtNumber, LtNumber and EqNumber on the value of a number,
//     MinString, MaxString, GtString, LtString and LenString on the
//     characters of a string, MinItems, MaxItems, GtItems, LtItems and
//     LenItems on the items of a slice, array or map; EqString (eq on a
//     string: the value, quoted), Ne, OneOf (the allowed values joined
//     with ", "), Rule (the fallback for a rule without its own text: the
//     rule as written), Or (joins the texts of the alternatives of an
//     "a|b" rule), Excluded (the excluded_* rules), RequiredWhen and
//     ExcludedWhen (a failed conditional rule: the condition as the
//     property's description states it, such as `when type is "card"`);
//     Rules maps every other rule to its text (a "%s" receives the
//     parameter), and its entry for a custom rule wins over the message
//     given to Validator.RegisterRule;
//   - how much one Error says: MaxIssues, the most problems it lists (zero
//     or less: DefaultMaxIssues), and MoreIssues, the last issue past it
//     (the count left out), so that a hostile input cannot make the
//     answer huge;
//   - a grouped tool's schema, written at build time:
//     DiscriminatorDescription (the discriminator property's description;
//     empty by default: its name and enum say what it is),
//     DiscriminatorActions (follows it when actions have descriptions: the
//     "key: description" items joined with "; "), NoteRequired (marks the
//     actions that require a property in its per-action lines), NoteAllBut
//     (names the actions that take a property as all but the others: the
//     others' keys; empty: always name them), and the tier notes
//     NoteAlwaysRequired, NoteRequiredFor, NoteRequiredAndFor and NoteFor
//     (comma-separated action keys; empty by default, and an empty note is
//     not written).
type Messages = schema.Messages

// DefaultMessages returns a fresh copy of the built-in texts, Rules
// included: the caller owns it and may change it freely.
func DefaultMessages() *Messages { return schema.DefaultMessages() }

// DefaultMaxIssues is the most problems one Error lists when
// Messages.MaxIssues is zero or less.
const DefaultMaxIssues = 20
