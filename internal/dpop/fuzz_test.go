package dpop_test

import (
	"testing"

	"github.com/vurb-go/vurb/internal/dpop"
)

// FuzzVerify: whatever a client sends as a proof, Verify answers (no
// panic), and what it accepts carries a key thumbprint and a jti.
func FuzzVerify(f *testing.F) {
	f.Add(newClient(f).proof(f, good("tok"))) // a valid one, for the fuzzer to start from
	f.Add("")
	f.Add("a.b.c")
	f.Add("eyJhbGciOiJub25lIn0.e30.")
	f.Fuzz(func(t *testing.T, proof string) {
		p, err := dpop.Verify(proof, check("tok"))
		if err == nil && (p.JKT == "" || p.JTI == "") {
			t.Fatalf("accepted %q without a key or a jti", proof)
		}
	})
}
