package toon

// kind tags which JSON type a value holds.
type kind uint8

const (
	kindNull kind = iota
	kindBool
	kindInt     // num holds an int64
	kindUint    // num holds a uint64
	kindFloat   // num holds the bits of a float64
	kindFloat32 // num holds the bits of a float64 converted from a float32
	kindNumber  // str holds a number in canonical decimal form (see number.go)
	kindString
	kindArray
	kindObject
)

// value is one node of the ordered JSON data model that sits between the
// outside world (Go values, JSON text) and TOON text. A Go map cannot keep
// key order and a float64 cannot keep every decimal, and TOON promises both
// (spec §2), hence a model of our own.
//
// An object is the list of its members, each member a value carrying its
// key; an array is the list of its elements. Keeping both in kids keeps the
// node small, which matters when Marshal builds thousands of rows.
type value struct {
	kind   kind
	quoted bool  // member key was quoted in TOON input; never path-expanded
	line   int32 // TOON input line of a member, for expansion errors
	num    uint64
	str    string
	key    string  // member key, when the value sits in an object
	kids   []value // array elements or object members, in order
}

func (v *value) isPrimitive() bool { return v.kind < kindArray }

func boolValue(b bool) value {
	if b {
		return value{kind: kindBool, num: 1}
	}
	return value{kind: kindBool}
}

func stringValue(s string) value { return value{kind: kindString, str: s} }

// smallObject is the member count up to which a linear scan finds a key
// faster than a map; beyond it objectBuilder indexes its keys.
const smallObject = 8

// objectBuilder appends object members and finds earlier members with the
// same key, so decoders can reject or replace duplicates without a
// quadratic scan on wide objects.
type objectBuilder struct {
	kids  []value
	index map[string]int
}

// find returns the position of the member named key, or -1.
func (b *objectBuilder) find(key string) int {
	if b.index != nil {
		if i, ok := b.index[key]; ok {
			return i
		}
		return -1
	}
	for i := range b.kids {
		if b.kids[i].key == key {
			return i
		}
	}
	return -1
}

// add appends a member; the caller has checked that key is new.
func (b *objectBuilder) add(m value) {
	b.kids = append(b.kids, m)
	if b.index != nil {
		b.index[m.key] = len(b.kids) - 1
	} else if len(b.kids) > smallObject {
		b.index = make(map[string]int, 2*len(b.kids))
		for i := range b.kids {
			b.index[b.kids[i].key] = i
		}
	}
}

// set adds a member or, when key exists, replaces its value in place: the
// last write wins but the key keeps its first position, as in JavaScript
// and in JSON parsers that preserve order.
func (b *objectBuilder) set(m value) {
	if i := b.find(m.key); i >= 0 {
		b.kids[i] = m
		return
	}
	b.add(m)
}

func (b *objectBuilder) value() value {
	return value{kind: kindObject, kids: b.kids}
}
