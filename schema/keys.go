package schema

import (
	"bytes"
)

// Bookkeeping of the keys seen in one object, to refuse duplicates without allocating.

// bitset marks struct fields by position; up to 64 without allocating.
type bitset struct {
	small uint64
	big   []uint64
}

func (b *bitset) set(i int) {
	if b.big != nil {
		b.big[i/64] |= 1 << (i % 64)
		return
	}
	b.small |= 1 << i
}

func (b *bitset) has(i int) bool {
	if b.big != nil {
		return b.big[i/64]&(1<<(i%64)) != 0
	}
	return b.small&(1<<i) != 0
}

type keySpan struct {
	start, end int
	esc        bool
}

// keyTracker detects duplicate keys in a free-form object: the first keys are
// compared in place, without allocating; a large object moves to a map.
type keyTracker struct {
	n        int
	small    [16]keySpan
	overflow map[string]struct{}
}

func (k *keyTracker) dup(data []byte, sp keySpan) bool {
	if k.overflow != nil {
		key := keyString(data[sp.start:sp.end], sp.esc)
		_, dup := k.overflow[key]
		k.overflow[key] = struct{}{}
		return dup
	}
	for i := 0; i < k.n; i++ {
		if spansEqual(data, k.small[i], sp) {
			return true
		}
	}
	if k.n < len(k.small) {
		k.small[k.n] = sp
		k.n++
		return false
	}
	k.overflow = make(map[string]struct{}, 2*len(k.small))
	for _, old := range k.small {
		k.overflow[keyString(data[old.start:old.end], old.esc)] = struct{}{}
	}
	k.overflow[keyString(data[sp.start:sp.end], sp.esc)] = struct{}{}
	return false
}

func spansEqual(data []byte, a, b keySpan) bool {
	ka, kb := data[a.start:a.end], data[b.start:b.end]
	if !a.esc && !b.esc {
		return bytes.Equal(ka, kb)
	}
	return bytes.Equal(unescape(ka), unescape(kb))
}

func keyEquals(data []byte, sp keySpan, want string) bool {
	k := data[sp.start:sp.end]
	if sp.esc {
		k = unescape(k)
	}
	return string(k) == want
}

func keyString(raw []byte, esc bool) string {
	if esc {
		return string(unescape(raw))
	}
	return string(raw)
}
