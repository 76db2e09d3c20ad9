package engine

import (
	"crypto/cipher"
	"crypto/rand"
)

// Box seals with the first of its AEADs and opens with any of them, so
// that keys rotate: what the old key sealed still opens. Its text is the
// nonce followed by the sealed data. The request state and the replicas'
// bus each seal in a Box of their own (Sealer.Box).
type Box []cipher.AEAD

// Seal appends to dst a random nonce and plain sealed under the first
// key with the additional data ad.
func (b Box) Seal(dst, plain, ad []byte) []byte {
	aead := b[0]
	n := len(dst)
	dst = append(dst, make([]byte, aead.NonceSize())...)
	if _, err := rand.Read(dst[n:]); err != nil {
		panic("vurb: no randomness for a nonce: " + err.Error())
	}
	return aead.Seal(dst, dst[n:], plain, ad)
}

// Open returns what sealed holds and its nonce, or false when no key
// opens it with ad.
func (b Box) Open(sealed, ad []byte) (plain, nonce []byte, ok bool) {
	for _, aead := range b {
		n := aead.NonceSize()
		if len(sealed) < n+aead.Overhead() {
			return nil, nil, false
		}
		if p, err := aead.Open(nil, sealed[:n], sealed[n:], ad); err == nil {
			return p, sealed[:n], true
		}
	}
	return nil, nil, false
}
