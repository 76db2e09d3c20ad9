package edge

import (
	"strings"
	"testing"

	"github.com/matryer/is"
)

// TestCredentialsReadAsTheGoSDKReadsThem: the scheme and token are the
// fields strings.Fields gives, which the go-sdk's bearer check uses, so
// that no spelling passes as one scheme here and another there.
func TestCredentialsReadAsTheGoSDKReadsThem(t *testing.T) {
	for _, h := range []string{"", " ", "Bearer", "Bearer tok", "Bearer\ttok", " bearer  tok ", "BEARER tok", "Bearer\u00a0tok",
		"Bearer\u0085tok", "DPoP tok", "dpop\ttok", "DPoP a b", "Basic x", "Bearer tok extra", "\tBearer\n tok\r"} {
		is := is.New(t)
		scheme, token := credentials(h)
		fields := strings.Fields(h)
		var want, wantToken string
		switch {
		case len(fields) == 0:
		case strings.ToLower(fields[0]) == "bearer":
			want = "bearer"
		case strings.ToLower(fields[0]) == "dpop":
			want = "dpop"
		default:
			want = "other"
		}
		if len(fields) == 2 {
			wantToken = fields[1]
		}
		is.Equal(scheme, want)     // the scheme
		is.Equal(token, wantToken) // the token
	}
}

func BenchmarkCredentials(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		credentials("Bearer eyJhbGciOiJSUzI1NiIsInR5cCI6ImF0K2p3dCJ9")
	}
}
