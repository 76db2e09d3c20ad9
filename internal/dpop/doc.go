// Package dpop verifies DPoP proofs (RFC 9449) for a resource server:
// the JWT a client signs with a key it holds, sent beside a DPoP-bound
// access token, so that a stolen token is worthless without the key. It
// checks a proof as §4.3 says and returns the key's thumbprint (RFC 7638)
// for the caller to compare with the token's cnf.jkt, and the proof's jti
// for the caller to spend once in the app's store. It is pure: no clock,
// no store, no network of its own.
package dpop
